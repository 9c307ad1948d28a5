// The login page in front of a password-protected status page; the route answers it with 401 and checks the POST.
// It names no page (no title, description or slug): whoever does not know the password learns nothing from it beyond
// the address they already typed.
import { escapeHtml, type HtmlRendering, htmlDocument, stateIcon } from './html-layout.js';
import { plainText } from './page-wording.js';

/** A page asking for the status page's password, POSTed as `password` to `action`, with the last error if any. */
export function renderLoginPage(options: { action: string; error?: string }): HtmlRendering {
  const error = options.error ? plainText(options.error) : '';
  const errorHtml = error ? `<p class="error" id="password-error" role="alert">${stateIcon('down')}${escapeHtml(error)}</p>` : '';
  const described = error ? ' aria-describedby="password-error" aria-invalid="true"' : '';
  const body =
    '<header class="site-head"><div class="wrap"><p>Status page</p></div></header>\n' +
    '<main id="main" tabindex="-1"><div class="wrap"><div class="card narrow">' +
    '<h1>Private status page</h1>' +
    '<p>This status page is private. Enter its password to see it.</p>' +
    errorHtml +
    `<form method="post" action="${escapeHtml(options.action)}">` +
    '<div class="field"><label for="password">Password</label>' +
    `<input id="password" name="password" type="password" autocomplete="current-password" required autofocus${described}></div>` +
    '<button class="button" type="submit">View status</button>' +
    '</form></div></div></main>\n' +
    '<footer class="site-foot"><div class="wrap"><p>Powered by Warden</p></div></footer>';
  return {
    contentType: 'text/html; charset=utf-8',
    body: htmlDocument({
      title: 'Password required',
      head: '<meta name="robots" content="noindex">\n',
      body,
    }),
  };
}
