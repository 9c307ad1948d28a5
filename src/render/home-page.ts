// What Warden's own address shows at /: each public status page with its overall state, and the way into the dashboard,
// in the pages' look.
import type { OverallState } from '../domain/states.js';
import { escapeHtml, type HtmlRendering, htmlDocument, stateIcon } from './html-layout.js';
import { plainText } from './page-wording.js';

export interface ListedPage {
  slug: string;
  title: string;
  description: string | null;
  /** The page's overall state and label from its snapshot (an icon and words, never colour alone). */
  overall: OverallState;
}

/** Each page given, with its state (the caller picks the public ones, orders and caps the list), then the dashboard link. */
export function renderHomePage(pages: readonly ListedPage[], { setup = false } = {}): HtmlRendering {
  const list =
    pages.length === 0
      ? '<div class="card"><p class="empty">No public status page yet.</p></div>'
      : `<ul class="list card">${pages.map(pageHtml).join('')}</ul>`;
  const body =
    '<header class="site-head"><div class="wrap"><div><h1>Warden</h1><p>Status pages and monitoring</p></div></div></header>\n' +
    '<main id="main" tabindex="-1"><div class="wrap">' +
    `<section class="block" aria-labelledby="pages-title"><h2 id="pages-title">Status pages</h2>${list}</section>` +
    '<section class="block" aria-labelledby="dashboard-title"><h2 id="dashboard-title">Dashboard</h2>' +
    (setup
      ? '<div class="card"><p class="empty"><a href="/app/">Set up the dashboard</a>: create the owner account with the setup code from the start-up log (or <code>warden setup-code</code>), then add your own monitors and pages.</p></div>'
      : '<div class="card"><p class="empty"><a href="/app/">Sign in to the dashboard</a> to manage monitors, pages, incidents and your organization.</p></div>') +
    '</section></div></main>\n' +
    '<footer class="site-foot"><div class="wrap"><p><a href="/docs">API reference</a> · Powered by Warden</p></div></footer>';
  return { contentType: 'text/html; charset=utf-8', body: htmlDocument({ title: 'Warden', body }) };
}

function pageHtml(page: ListedPage): string {
  const description = plainText(page.description ?? '').slice(0, 200);
  const { state, label } = page.overall;
  return (
    `<li class="component" data-testid="page" data-state="${state}">` +
    '<div class="component-head">' +
    `<p class="component-name"><a href="/s/${escapeHtml(page.slug)}">${escapeHtml(plainText(page.title))}</a>` +
    (description ? `<span class="component-desc">${escapeHtml(description)}</span>` : '') +
    '</p>' +
    `<p class="component-status"><span class="state t-${state}">${stateIcon(state)}${escapeHtml(label)}</span></p>` +
    '</div></li>'
  );
}
