// The login page in front of a password-protected status page; the route answers it with 401 and checks the POST.
import { escapeHtml, type HtmlRendering, htmlDocument, stateIcon } from './html-layout.js';
import { plainText } from './page-wording.js';

/** A page asking for the status page's password, POSTed as `password` to `action`, with the last error if any. */
export function renderLoginPage(page: { title: string; slug: string }, options: { action: string; error?: string }): HtmlRendering {
  const title = plainText(page.title) || page.slug;
  const error = options.error ? plainText(options.error) : '';
  const errorHtml = error ? `<p class="error" id="password-error" role="alert">${stateIcon('down')}${escapeHtml(error)}</p>` : '';
  const described = error ? ' aria-describedby="password-error" aria-invalid="true"' : '';
  const body =
    `<header class="site-head"><div class="wrap"><p>${escapeHtml(title)} status</p></div></header>\n` +
    '<main id="main" tabindex="-1"><div class="wrap"><div class="card narrow">' +
    `<h1>${escapeHtml(title)}</h1>` +
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
      title: `${title} status · password required`,
      head: '<meta name="robots" content="noindex">\n',
      body,
    }),
  };
}
