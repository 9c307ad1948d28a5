// The login page in front of a password-protected status page; the route answers it with 401 and checks the POST.
// It names no page (no title, description or slug): whoever does not know the password learns nothing from it beyond
// the address they already typed.
import { escapeHtml, type HtmlRendering, htmlDocument, stateIcon } from './html-layout.js';
import { type Translator, translator } from './i18n/index.js';
import { plainText } from './page-wording.js';

/**
 * A page asking for the status page's password, POSTed as `password` to `action`, with the last error if any (in the
 * reader's language already). `i18n`: the reader's language, English when left out.
 */
export function renderLoginPage(options: { action: string; error?: string; i18n?: Translator }): HtmlRendering {
  const i18n = options.i18n ?? translator();
  const text = (
    key: 'common.statusPage' | 'login.heading' | 'login.text' | 'login.password' | 'login.button' | 'common.poweredBy',
  ) => escapeHtml(i18n.t(key));
  const error = options.error ? plainText(options.error) : '';
  const errorHtml = error
    ? `<p class="error" id="password-error" role="alert">${stateIcon('down')}${escapeHtml(error)}</p>`
    : '';
  const described = error ? ' aria-describedby="password-error" aria-invalid="true"' : '';
  const body =
    `<header class="site-head"><div class="wrap"><p>${text('common.statusPage')}</p></div></header>\n` +
    '<main id="main" tabindex="-1"><div class="wrap"><div class="card narrow">' +
    `<h1>${text('login.heading')}</h1>` +
    `<p>${text('login.text')}</p>` +
    errorHtml +
    `<form method="post" action="${escapeHtml(options.action)}">` +
    `<div class="field"><label for="password">${text('login.password')}</label>` +
    `<input id="password" name="password" type="password" autocomplete="current-password" required autofocus${described}></div>` +
    `<button class="button" type="submit">${text('login.button')}</button>` +
    '</form></div></div></main>\n' +
    `<footer class="site-foot"><div class="wrap"><p>${text('common.poweredBy')}</p></div></footer>`;
  return {
    contentType: 'text/html; charset=utf-8',
    body: htmlDocument({
      title: i18n.t('login.documentTitle'),
      head: '<meta name="robots" content="noindex">\n',
      body,
      i18n,
    }),
  };
}
