// The friendly 404 for a status page slug that does not exist; the route sets the status code.
import { escapeHtml, type HtmlRendering, htmlDocument } from './html-layout.js';
import { type Translator, translator } from './i18n/index.js';
import { plainText } from './page-wording.js';

/** "No status page called … here", in the look of the status pages, in the reader's language (English when left out). */
export function renderNotFoundPage(slug: string, i18n: Translator = translator()): HtmlRendering {
  // A slug comes from the URL, so anyone can put anything here: clean it, cap it, escape it.
  const shown = plainText(slug).slice(0, 120);
  const body =
    `<header class="site-head"><div class="wrap"><p>${escapeHtml(i18n.t('notFound.site'))}</p></div></header>\n` +
    '<main id="main" tabindex="-1"><div class="wrap"><div class="card narrow">' +
    `<h1>${escapeHtml(i18n.t('notFound.heading', { slug: shown }))}</h1>` +
    `<p>${escapeHtml(i18n.t('notFound.text'))}</p>` +
    '</div></div></main>\n' +
    `<footer class="site-foot"><div class="wrap"><p>${escapeHtml(i18n.t('common.poweredBy'))}</p></div></footer>`;
  return {
    contentType: 'text/html; charset=utf-8',
    body: htmlDocument({
      title: i18n.t('notFound.documentTitle'),
      head: '<meta name="robots" content="noindex">\n',
      body,
      i18n,
    }),
  };
}
