// The friendly 404 for a status page slug that does not exist; the route sets the status code.
import { escapeHtml, type HtmlRendering, htmlDocument } from './html-layout.js';
import { plainText } from './page-wording.js';

/** "No status page called … here", in the look of the status pages. */
export function renderNotFoundPage(slug: string): HtmlRendering {
  // A slug comes from the URL, so anyone can put anything here: clean it, cap it, escape it.
  const shown = plainText(slug).slice(0, 120);
  const body =
    '<header class="site-head"><div class="wrap"><p>Status pages</p></div></header>\n' +
    '<main id="main" tabindex="-1"><div class="wrap"><div class="card narrow">' +
    `<h1>No status page called “${escapeHtml(shown)}” here</h1>` +
    '<p>The address may be mistyped, or the page was renamed or removed. Check the link you followed, or ask the community that shared it for the current one.</p>' +
    '</div></div></main>\n' +
    '<footer class="site-foot"><div class="wrap"><p>Powered by Warden</p></div></footer>';
  return {
    contentType: 'text/html; charset=utf-8',
    body: htmlDocument({ title: 'Status page not found', head: '<meta name="robots" content="noindex">\n', body }),
  };
}
