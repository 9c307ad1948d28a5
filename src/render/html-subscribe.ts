// The status page's "Get updates" block (forms posting to {page}/subscribe, no script needed: by email, a Discord or
// Slack channel, a webhook), and the small pages the subscribe, confirm and unsubscribe links answer with.
import type { Snapshot } from '../domain/snapshot.js';
import { escapeHtml, type HtmlRendering, htmlDocument, stateIcon } from './html-layout.js';
import { htmlMessage } from './html-message.js';
import { channelChoiceHtml } from './html-subscribe-channels.js';
import { type MessageKey, type Translator, translator } from './i18n/index.js';
import { plainText } from './page-wording.js';

/** The block, when the page takes subscriptions; '' otherwise. */
export function subscribeHtml(i18n: Translator, snapshot: Snapshot, action: string | undefined): string {
  const offer = snapshot.page.subscribe;
  if (!offer || !action || (!offer.email && !offer.webhook && !offer.discord && !offer.slack)) return '';
  const text = (key: MessageKey) => escapeHtml(i18n.t(key));
  const emailForm = offer.email
    ? `<form method="post" action="${escapeHtml(action)}">` +
      `<div class="field"><label for="subscribe-email">${text('subscribe.email')}</label>` +
      '<input id="subscribe-email" name="email" type="email" autocomplete="email" maxlength="254" required></div>' +
      `<button class="button" type="submit">${text('subscribe.button')}</button></form>`
    : '';
  const webhookForm =
    `<form method="post" action="${escapeHtml(action)}">` +
    `<p>${htmlMessage(i18n, 'subscribe.webhookIntro', {}, { challenge: '<code>challenge</code>' })}</p>` +
    `<div class="field"><label for="subscribe-webhook">${text('subscribe.webhook')}</label>` +
    '<input id="subscribe-webhook" name="webhook" type="url" inputmode="url" maxlength="2048" placeholder="https://" required></div>' +
    `<button class="button" type="submit">${text('subscribe.webhookButton')}</button></form>`;
  // Every choice but the first is folded: a community's channel, or a webhook.
  const channels =
    (offer.discord ? channelChoiceHtml(i18n, 'discord', action) : '') +
    (offer.slack ? channelChoiceHtml(i18n, 'slack', action) : '');
  const webhook = offer.webhook
    ? offer.email || channels !== ''
      ? `<details><summary>${text('subscribe.orWebhook')}</summary>${webhookForm}</details>`
      : webhookForm
    : '';
  return (
    '<section class="subscribe-area" id="subscribe" aria-labelledby="subscribe-title"><div class="wrap">' +
    `<h2 id="subscribe-title">${text('subscribe.title')}</h2>` +
    '<div class="card subscribe">' +
    `<p>${escapeHtml(i18n.t('subscribe.intro', { channel: offer.email ? 'email' : 'webhook' }))}</p>` +
    emailForm +
    channels +
    webhook +
    '</div></div></section>\n'
  );
}

export interface NoticeOptions {
  /** The document's title and the heading. */
  heading: string;
  /** Paragraphs, as plain text. */
  lines: string[];
  /** The status page it is about, linked below. */
  page: { title: string; url: string };
  /** Whether the notice reports a failure (shown as an alert). */
  error?: boolean;
  /** A form with one button (unsubscribe's confirmation), posting to `action`. */
  button?: { action: string; label: string };
  /** A link after the lines (a subscribed Discord channel). */
  link?: { label: string; url: string };
  /** A value to copy (a webhook's signing secret), shown once. */
  secret?: { label: string; value: string };
  /** The reader's language (the page's words; the heading and lines come in it already); English when left out. */
  i18n?: Translator;
}

/** A small page answering a subscription link or form, in the status page's look. */
export function renderSubscriptionNotice(options: NoticeOptions): HtmlRendering {
  const i18n = options.i18n ?? translator();
  const title = plainText(options.page.title) || i18n.t('common.statusPage');
  // A failure's first line is the alert.
  const [first, ...rest] = options.lines;
  const alert =
    options.error && first !== undefined
      ? `<p class="error" role="alert">${stateIcon('down')}${escapeHtml(first)}</p>`
      : '';
  const lines = (options.error ? rest : options.lines).map((line) => `<p>${escapeHtml(line)}</p>`).join('');
  const link = options.link
    ? `<p><a href="${escapeHtml(options.link.url)}">${escapeHtml(options.link.label)}</a></p>`
    : '';
  const secret = options.secret
    ? `<div class="field"><label for="secret">${escapeHtml(options.secret.label)}</label><input id="secret" readonly value="${escapeHtml(options.secret.value)}"></div>`
    : '';
  const button = options.button
    ? `<form method="post" action="${escapeHtml(options.button.action)}"><button class="button" type="submit">${escapeHtml(options.button.label)}</button></form>`
    : '';
  const body =
    `<header class="site-head"><div class="wrap"><p>${escapeHtml(title)}</p></div></header>\n` +
    '<main id="main" tabindex="-1"><div class="wrap"><div class="card narrow">' +
    `<h1>${escapeHtml(options.heading)}</h1>` +
    alert +
    lines +
    link +
    secret +
    button +
    `<p><a href="${escapeHtml(options.page.url)}">${escapeHtml(i18n.t('notice.backTo', { title }))}</a></p>` +
    '</div></div></main>\n' +
    `<footer class="site-foot"><div class="wrap"><p>${escapeHtml(i18n.t('common.poweredBy'))}</p></div></footer>`;
  return {
    contentType: 'text/html; charset=utf-8',
    body: htmlDocument({
      title: `${options.heading} · ${title}`,
      head: '<meta name="robots" content="noindex">\n',
      body,
      i18n,
    }),
  };
}
