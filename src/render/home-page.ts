// What Warden's own address shows at /: the way into the dashboard and the public status pages, in the pages' look.
import { escapeHtml, type HtmlRendering, htmlDocument } from './html-layout.js';
import { plainText } from './page-wording.js';

export interface ListedPage {
  slug: string;
  title: string;
  description: string | null;
}

/** The dashboard link, then each page given (the caller picks the public ones and caps the list). */
export function renderHomePage(pages: readonly ListedPage[]): HtmlRendering {
  const items = pages
    .map((p) => {
      const description = plainText(p.description ?? '').slice(0, 200);
      return `<li><a href="/s/${escapeHtml(p.slug)}">${escapeHtml(plainText(p.title))}</a>${description ? ` — ${escapeHtml(description)}` : ''}</li>`;
    })
    .join('');
  const body =
    '<header class="site-head"><div class="wrap"><div><h1>Warden</h1><p>Status pages and monitoring</p></div></div></header>\n' +
    '<main id="main" tabindex="-1"><div class="wrap">' +
    '<div class="card narrow">' +
    '<h2>Dashboard</h2><p><a href="/app/">Sign in to the dashboard</a> to manage monitors, pages, incidents and your organization.</p>' +
    '<h2>Status pages</h2>' +
    (items ? `<ul>${items}</ul>` : '<p>No public status page yet.</p>') +
    '</div></div></main>\n' +
    '<footer class="site-foot"><div class="wrap"><p><a href="/docs">API reference</a> · Powered by Warden</p></div></footer>';
  return { contentType: 'text/html; charset=utf-8', body: htmlDocument({ title: 'Warden', body }) };
}
