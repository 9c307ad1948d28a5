// The chat channels' pictures in docs/notifications.md (loaded by test/doc-screenshots.ts): what the Mattermost,
// Rocket.Chat, Google Chat and Matrix channels really sent a fake receiver for a monitor going down and coming back,
// drawn by small HTML renderings after each app's light theme — renderings, not captures of the apps' clients. The
// recovery is sent 4 min 12 s after the down (as its downtime says), so Google Chat's thread key pairs them.
import type { Page } from 'playwright-core';
import type { NotificationEvent } from '../src/notify/channels/channel.js';
import { googleChatChannel } from '../src/notify/channels/googlechat.js';
import { matrixChannel } from '../src/notify/channels/matrix.js';
import { mattermostChannel } from '../src/notify/channels/mattermost.js';
import { rocketChatChannel } from '../src/notify/channels/rocketchat.js';
import { channelRequests, escapeHtml, fontFaces, hex, markdownHtml, shoot, withEmoji } from './doc-screenshot-parts.js';
import { AT, DOWN_EVENT, RECOVERED_EVENT } from './fakes/notify-receivers.js';

/** Rocket.Chat's :bell: emoji, the avatar the message asks for. */
const BELL =
  '<svg viewBox="0 0 24 24" width="22" height="22" role="img" aria-label="bell"><path d="M12 3a6 6 0 0 0-6 6v4l-2 3h16l-2-3V9a6 6 0 0 0-6-6z" fill="#f4b400"/><circle cx="12" cy="19" r="2.2" fill="#c77c02"/></svg>';

const EVENTS: NotificationEvent[] = [DOWN_EVENT, { ...RECOVERED_EVENT, at: AT + 252_000 }];
const clock = (at: number) => new Date(at).toISOString().slice(11, 16);

interface Attachment {
  color: string;
  title: string;
  title_link?: string;
  text?: string;
  fields: { title: string; value: string; short: boolean }[];
  footer?: string;
  author_name?: string;
}

/** A Slack-style attachment as Mattermost and Rocket.Chat draw it: the colour bar, title, text, fields in two columns. */
function attachmentHtml(a: Attachment, link: string): string {
  const title = a.title_link
    ? `<a class="att-title" style="color:${link}" href="${escapeHtml(a.title_link)}">${escapeHtml(a.title)}</a>`
    : `<div class="att-title">${escapeHtml(a.title)}</div>`;
  const fields = a.fields
    .map(
      (f) =>
        `<div class="att-field${f.short ? '' : ' wide'}"><b>${escapeHtml(f.title)}</b><div>${markdownHtml(f.value, `color:${link}`)}</div></div>`,
    )
    .join('');
  return `<div class="att" style="border-left-color:${escapeHtml(a.color)}">
    ${a.author_name ? `<div class="att-author">${escapeHtml(a.author_name)}</div>` : ''}${title}
    ${a.text ? `<div class="att-text">${markdownHtml(a.text, `color:${link}`)}</div>` : ''}
    <div class="att-fields">${fields}</div>
    ${a.footer ? `<div class="att-footer">${escapeHtml(a.footer)}</div>` : ''}</div>`;
}

const ATTACHMENT_CSS = `.att{border:1px solid #dcdfe4;border-left:4px solid;border-radius:4px;padding:10px 12px;margin-top:6px;width:500px;box-sizing:border-box}
  .att-author{font-size:12px;color:#6b7280;margin-bottom:2px}
  .att-title{display:block;font-weight:600;font-size:15px;text-decoration:none;color:#1f2328}
  .att-text{margin-top:6px;font-size:14px;line-height:1.45}
  .att-fields{display:grid;grid-template-columns:1fr 1fr;gap:8px 16px;margin-top:8px;font-size:14px}
  .att-field b{display:block;font-weight:600;margin-bottom:1px}.att-field.wide{grid-column:1/-1}
  .att-field a{text-decoration:none}
  .att-footer{margin-top:8px;font-size:12px;color:#6b7280}`;

function page(css: string, body: string): string {
  return `<!doctype html><html><head><meta charset="utf-8"><style>${fontFaces()}
    body{margin:0;font-family:Inter,sans-serif;color:#1f2328;background:#fff}
    .msg{display:flex;gap:10px;margin-bottom:14px}.avatar{flex:none;width:36px;height:36px;border-radius:50%;display:grid;place-items:center;color:#fff;font-weight:700}
    .who{display:flex;align-items:center;gap:6px;font-size:15px}.who b{font-weight:700}.time{font-size:12px;color:#6b7280}
    .tag{font-size:10px;font-weight:600;padding:1px 4px;border-radius:3px;background:#e8eaed;color:#4b5563}
    ${ATTACHMENT_CSS}${css}</style></head><body>${withEmoji(body)}</body></html>`;
}

function chrome(id: string, bar: string, header: string, messages: string): string {
  return `<div id="${id}" class="app"><div class="bar" style="${bar}">${header}</div><div class="list">${messages}</div></div>`;
}

const APP_CSS = `.app{width:640px;border:1px solid #dcdfe4}.bar{padding:10px 16px;font-weight:600;font-size:15px}.list{padding:16px 16px 4px}`;

async function mattermost(page_: Page): Promise<void> {
  const posts = await channelRequests(mattermostChannel, (o) => ({ url: `${o}/hooks/xfa1k3y` }), EVENTS);
  const messages = posts
    .map((r, i) => {
      const post = r.json as { username: string; attachments: Attachment[] };
      return `<div class="msg"><div class="avatar" style="background:#1e325c">W</div><div>
        <div class="who"><b>${escapeHtml(post.username)}</b><span class="tag">BOT</span><span class="time">${clock((EVENTS[i] as NotificationEvent).at)}</span></div>
        ${post.attachments.map((a) => attachmentHtml(a, '#1c58d9')).join('')}</div></div>`;
    })
    .join('');
  const html = page(APP_CSS, chrome('mm', 'background:#1e325c;color:#fff', '~ ops-alerts', messages));
  await shoot(page_, html, '#mm', 'notify-mattermost.png', EVENTS.map(hex));
}

async function rocketChat(page_: Page): Promise<void> {
  const posts = await channelRequests(rocketChatChannel, (o) => ({ url: `${o}/hooks/6Fz9kQ/xT0k3nS3cr3t` }), EVENTS);
  const messages = posts
    .map((r) => {
      const post = r.json as {
        alias: string;
        emoji: string;
        text: string;
        attachments: (Attachment & { ts: string })[];
      };
      const at = Date.parse((post.attachments[0] as { ts: string }).ts);
      // :bell: is the avatar Rocket.Chat shows for the emoji the message names.
      return `<div class="msg"><div class="avatar" style="background:#fde68a;color:#92400e">${post.emoji === ':bell:' ? BELL : 'W'}</div><div>
        <div class="who"><b>${escapeHtml(post.alias)}</b><span class="tag">BOT</span><span class="time">${clock(at)}</span></div>
        <div class="rc-text">${markdownHtml(post.text)}</div>
        ${post.attachments.map((a) => attachmentHtml(a, '#1d74f5')).join('')}</div></div>`;
    })
    .join('');
  const css = `${APP_CSS}.rc-text{font-size:14px;margin-top:2px}.avatar{border-radius:6px}`;
  const html = page(css, chrome('rc', 'border-bottom:1px solid #e4e7ea;color:#2f343d', '# ops-alerts', messages));
  await shoot(page_, html, '#rc', 'notify-rocketchat.png', EVENTS.map(hex));
}

type Widget =
  | { textParagraph: { text: string } }
  | { decoratedText: { topLabel: string; text: string } }
  | { buttonList: { buttons: { text: string; onClick: { openLink: { url: string } } }[] } };

/** Google Chat's card text: the few tags Warden sends (a link, a coloured font), the rest already escaped by the channel. */
const chatCardHtml = (text: string) =>
  text.replace(/<font color="(#[0-9a-f]{6})">/g, '<span style="color:$1">').replace(/<\/font>/g, '</span>');

function widgetHtml(widget: Widget): string {
  if ('textParagraph' in widget) return `<div class="gc-par">${chatCardHtml(widget.textParagraph.text)}</div>`;
  if ('decoratedText' in widget)
    return `<div class="gc-dec"><div class="gc-label">${escapeHtml(widget.decoratedText.topLabel)}</div><div>${chatCardHtml(widget.decoratedText.text)}</div></div>`;
  return `<div class="gc-buttons">${widget.buttonList.buttons.map((b) => `<span class="gc-button">${escapeHtml(b.text)}</span>`).join('')}</div>`;
}

async function googleChat(page_: Page): Promise<void> {
  const webhook = '/v1/spaces/AAAAx1/messages?key=AIzaSyDdI0h&token=tK3n%3D';
  const posts = await channelRequests(googleChatChannel, (o) => ({ url: `${o}${webhook}` }), EVENTS);
  const first = (posts[0]!.json as { thread: { threadKey: string } }).thread.threadKey;
  const messages = posts
    .map((r, i) => {
      type Card = { header: { title: string; subtitle: string }; sections: { widgets: Widget[] }[] };
      const post = r.json as { cardsV2: { card: Card }[]; thread: { threadKey: string } };
      const { card } = post.cardsV2[0] as { card: Card };
      // A message under the first one's thread key is a reply in its thread.
      const reply = i > 0 && post.thread.threadKey === first;
      return `<div class="msg${reply ? ' reply' : ''}"><div class="avatar" style="background:#1a73e8">W</div><div>
        <div class="who"><b>Warden</b><span class="tag">App</span><span class="time">${clock((EVENTS[i] as NotificationEvent).at)}</span></div>
        <div class="gc-card"><div class="gc-head"><div class="gc-title">${escapeHtml(card.header.title)}</div><div class="gc-sub">${escapeHtml(card.header.subtitle)}</div></div>
        ${card.sections.map((s) => s.widgets.map(widgetHtml).join('')).join('')}</div></div></div>`;
    })
    .join('');
  const css = `${APP_CSS}.gc-card{width:420px;border:1px solid #dadce0;border-radius:8px;padding:4px 0 8px;margin-top:6px}
    .gc-head{padding:10px 16px 8px}.gc-title{font-size:16px;font-weight:600}.gc-sub{font-size:13px;color:#5f6368}
    .gc-par,.gc-dec{padding:6px 16px;font-size:14px;line-height:1.4}.gc-label{font-size:12px;color:#5f6368}
    .gc-dec a{color:#1a73e8;text-decoration:none}.gc-buttons{padding:8px 16px}
    .gc-button{display:inline-block;background:#1a73e8;color:#fff;font-size:14px;font-weight:600;padding:7px 14px;border-radius:4px}
    .reply{margin-left:46px;padding-left:12px;border-left:2px solid #dadce0}`;
  const html = page(css, chrome('gc', 'border-bottom:1px solid #dadce0;color:#202124', 'Ops alerts', messages));
  await shoot(page_, html, '#gc', 'notify-googlechat.png', ['#dd2e44', '#1a73e8']);
}

async function matrix(page_: Page): Promise<void> {
  const config = (o: string) => ({
    homeserverUrl: o,
    accessToken: 'syt_token',
    roomId: '!OGEhHVWSdvArJzumhm:matrix.org',
  });
  const posts = await channelRequests(matrixChannel, config, EVENTS, { status: 200, body: '{"event_id":"$e"}' });
  const messages = posts
    .map((r, i) => {
      const message = r.json as { formatted_body: string };
      // formatted_body is the channel's own HTML (its text escaped by it): p, b, i, ul/li and links.
      return `<div class="msg"><div class="avatar" style="background:#0dbd8b">W</div><div>
        <div class="who"><b style="color:#0dbd8b">Warden</b><span class="time">${clock((EVENTS[i] as NotificationEvent).at)}</span></div>
        <div class="mx">${message.formatted_body}</div></div></div>`;
    })
    .join('');
  const css = `${APP_CSS}.mx{font-size:14px;line-height:1.45}.mx p{margin:2px 0 6px}.mx ul{margin:4px 0 6px;padding-left:22px}
    .mx a{color:#0086e6;text-decoration:none}.mx i{color:#6b7280}`;
  const html = page(css, chrome('mx', 'border-bottom:1px solid #e3e8f0;color:#17191c', '# ops-alerts', messages));
  await shoot(page_, html, '#mx', 'notify-matrix.png', ['#dd2e44', '#0dbd8b']);
}

/** The four chat pictures. */
export async function chatScreenshots(page_: Page): Promise<void> {
  await mattermost(page_);
  await rocketChat(page_);
  await googleChat(page_);
  await matrix(page_);
}
