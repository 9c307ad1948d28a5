// `npm run screenshots`: the pictures in docs/notifications.md, made from what the channels really send, in Chromium,
// those of docs/dashboard.md (test/dashboard-screenshots.ts), the status page's in README.md (test/page-screenshots.ts)
// and the join buttons' in docs/join.md (test/join-screenshots.ts).
// Discord: the exact JSON the discord channel posted to a fake receiver, drawn by a small HTML rendering after Discord's
// dark theme (colour bar, title, description, inline fields, footer) — a rendering, not a capture of Discord's client.
// Email: the HTML part of the message the email channel handed to a real SMTP server, parsed back with mailparser,
// shown as sent under its subject, sender and recipient.
// The other channels (test/doc-screenshots-chat.ts, test/doc-screenshots-devices.ts): Mattermost, Rocket.Chat, Google
// Chat and Matrix in renderings after each app, Pushover, Gotify and Twilio's SMS on three phones, and the PagerDuty
// incident and Opsgenie alert their events make, each from the requests the channel sent a fake receiver.
import { mkdirSync } from 'node:fs';
import type { NotificationEvent } from '../src/notify/channels/channel.js';
import { discordChannel } from '../src/notify/channels/discord.js';
import { emailChannel, emailConfig } from '../src/notify/channels/email.js';
import { launchChromium } from './browser.js';
import { escapeHtml, fontFaces, hex, IMAGES, markdownHtml, SCALE, shoot } from './doc-screenshot-parts.js';
import { DOWN_EVENT, RECOVERED_EVENT, sendContext, startReceiver } from './fakes/notify-receivers.js';
import { startSmtpFake } from './fakes/smtp-server.js';

interface DiscordEmbed {
  title: string;
  description?: string;
  url?: string;
  color: number;
  fields: { name: string; value: string; inline: boolean }[];
  footer: { text: string };
  timestamp: string;
}

/** What the discord channel posts for each event, as the receiver got it. */
async function discordPosts(events: NotificationEvent[]): Promise<{ username: string; embeds: DiscordEmbed[] }[]> {
  const receiver = await startReceiver({ status: 204 });
  try {
    for (const event of events) {
      const outcome = await discordChannel.send(event, { url: `${receiver.url}/api/webhooks/1/token` }, sendContext());
      if (outcome.kind !== 'sent') throw new Error(`the discord channel did not send: ${JSON.stringify(outcome)}`);
    }
    return receiver.requests.map((r) => r.json as { username: string; embeds: DiscordEmbed[] });
  } finally {
    await receiver.close();
  }
}

/** The message the email channel sent for an event, parsed back from what the SMTP server received. */
async function sentEmail(event: NotificationEvent) {
  const smtp = await startSmtpFake();
  try {
    const config = emailConfig.parse({
      to: 'oncall@acme.test',
      from: { address: 'warden@acme.test', name: 'Warden' },
      host: '127.0.0.1',
      port: smtp.port,
      secure: 'none',
    });
    const outcome = await emailChannel.send(event, config, sendContext());
    if (outcome.kind !== 'sent') throw new Error(`the email channel did not send: ${JSON.stringify(outcome)}`);
    const mail = await (smtp.messages[0] as NonNullable<(typeof smtp.messages)[0]>).parse();
    if (typeof mail.html !== 'string') throw new Error('the email has no HTML part');
    return {
      subject: mail.subject ?? '',
      from: mail.from?.text ?? '',
      to: [mail.to ?? []]
        .flat()
        .map((a) => a.text)
        .join(', '),
      date: mail.date,
      html: mail.html,
    };
  } finally {
    await smtp.close();
  }
}

const when = (iso: string) =>
  new Date(iso)
    .toLocaleString('en-US', {
      timeZone: 'UTC',
      month: '2-digit',
      day: '2-digit',
      year: 'numeric',
      hour: 'numeric',
      minute: '2-digit',
    })
    .replace(',', '');

function discordHtml(posts: { username: string; embeds: DiscordEmbed[] }[]): string {
  const message = (post: { username: string; embeds: DiscordEmbed[] }) => {
    const embed = post.embeds[0] as DiscordEmbed;
    const colour = `#${embed.color.toString(16).padStart(6, '0')}`;
    const fields = embed.fields
      .map(
        (f) =>
          `<div class="field${f.inline ? '' : ' wide'}"><div class="name">${markdownHtml(f.name)}</div><div class="value">${markdownHtml(f.value)}</div></div>`,
      )
      .join('');
    const title = embed.url
      ? `<a class="title" href="${escapeHtml(embed.url)}">${escapeHtml(embed.title)}</a>`
      : `<div class="title plain">${escapeHtml(embed.title)}</div>`;
    return `<div class="message"><div class="avatar">W</div><div class="body">
      <div class="head"><span class="user">${escapeHtml(post.username)}</span><span class="app">APP</span><span class="time">${when(embed.timestamp)}</span></div>
      <div class="embed" style="border-left-color:${colour}">${title}
        ${embed.description ? `<div class="description">${markdownHtml(embed.description)}</div>` : ''}
        <div class="fields">${fields}</div>
        <div class="footer">${escapeHtml(embed.footer.text)} • ${when(embed.timestamp)}</div>
      </div></div></div>`;
  };
  return `<!doctype html><html><head><meta charset="utf-8"><style>${fontFaces()}
    body{margin:0;background:#313338;font-family:Inter,sans-serif;color:#dbdee1}
    #chat{width:640px;padding:16px 16px 8px}
    .message{display:flex;gap:16px;margin-bottom:16px}
    .avatar{flex:none;width:40px;height:40px;border-radius:50%;background:#5865f2;color:#fff;font-weight:700;display:grid;place-items:center}
    .head{display:flex;align-items:center;gap:6px;margin-bottom:4px}
    .user{color:#f2f3f5;font-weight:600;font-size:15px}
    .app{background:#5865f2;color:#fff;font-size:10px;font-weight:600;padding:1px 4px;border-radius:3px}
    .time{color:#949ba4;font-size:12px;margin-left:2px}
    .embed{max-width:516px;background:#2b2d31;border-left:4px solid;border-radius:4px;padding:8px 16px 16px 12px;box-sizing:border-box}
    .title{display:block;margin-top:8px;font-weight:600;font-size:15px;color:#00a8fc;text-decoration:none}
    .title.plain{color:#f2f3f5}
    .description{margin-top:8px;font-size:14px;line-height:1.375}
    .fields{display:grid;grid-template-columns:repeat(3,1fr);gap:8px;margin-top:8px}
    .field.wide{grid-column:1/-1}
    .name{font-size:14px;font-weight:600;color:#f2f3f5;margin-bottom:2px}
    .value{font-size:14px;line-height:1.375}
    .value a{color:#00a8fc;text-decoration:none}
    .footer{margin-top:8px;font-size:12px;color:#b5bac1}
  </style></head><body><div id="chat">${posts.map(message).join('')}</div></body></html>`;
}

function emailHtml(mail: Awaited<ReturnType<typeof sentEmail>>): string {
  const date = mail.date ? mail.date.toUTCString().replace('GMT', 'UTC') : '';
  // The HTML part as sent, in a sandboxed frame (its own document, no scripts; same origin only so its height can be read), under the headers a mail client shows.
  return `<!doctype html><html><head><meta charset="utf-8"><style>${fontFaces()}
    body{margin:0;background:#eef0f3;font-family:Inter,sans-serif}
    #mail{width:640px;margin:0;background:#fff;border:1px solid #d7dbe0}
    .headers{padding:16px 20px 12px;border-bottom:1px solid #e5e7eb}
    .subject{font-size:18px;font-weight:600;color:#111827;margin-bottom:8px}
    .line{font-size:13px;color:#4b5563;line-height:1.6}
    .line b{color:#111827;font-weight:600}
    iframe{display:block;width:100%;height:360px;border:0}
  </style></head><body><div id="mail">
    <div class="headers"><div class="subject">${escapeHtml(mail.subject)}</div>
      <div class="line"><b>From</b> ${escapeHtml(mail.from)}</div>
      <div class="line"><b>To</b> ${escapeHtml(mail.to)}</div>
      <div class="line"><b>Date</b> ${escapeHtml(date)}</div></div>
    <iframe sandbox="allow-same-origin" srcdoc="${escapeHtml(mail.html)}"></iframe>
  </div></body></html>`;
}

// `npm run screenshots [notifications] [dashboard] [setup] [page] [join] [players] [board]`: the sets named, or all of them (`setup`: the
// dashboard's setup screen alone).
const wanted = process.argv.slice(2);
const makes = (set: string) => wanted.length === 0 || wanted.includes(set);
mkdirSync(IMAGES, { recursive: true });
const browser = await launchChromium();
try {
  if (makes('notifications')) {
    const page = await browser.newPage({ viewport: { width: 720, height: 600 }, deviceScaleFactor: SCALE });
    await shoot(page, discordHtml(await discordPosts([DOWN_EVENT, RECOVERED_EVENT])), '#chat', 'notify-discord.png', [
      hex(DOWN_EVENT),
      hex(RECOVERED_EVENT),
    ]);
    await shoot(page, emailHtml(await sentEmail(DOWN_EVENT)), '#mail', 'notify-email.png', [hex(DOWN_EVENT)]);
    // The other channels' pictures, from their own files: chat apps, phones, pagers.
    await (await import('./doc-screenshots-chat.js')).chatScreenshots(page);
    await (await import('./doc-screenshots-devices.js')).deviceScreenshots(page);
    await page.close();
  }
  // The dashboard's screens (docs/dashboard.md), from a served Warden: loaded only when asked for.
  if (makes('dashboard')) await (await import('./dashboard-screenshots.js')).dashboardScreenshots(browser);
  // Its first-run setup screen, from a fresh Warden of its own (`setup` makes this one alone).
  if (makes('dashboard') || wanted.includes('setup'))
    await (await import('./dashboard-setup-screenshot.js')).setupScreenshot(browser);
  // The public status page (README.md), the scene of test/e2e/page-showcase.test.ts.
  if (makes('page')) await (await import('./page-screenshots.js')).pageScreenshots(browser);
  // The join buttons of game components (docs/join.md).
  if (makes('join')) await (await import('./join-screenshots.js')).joinScreenshots(browser);
  // Who is online (README.md): one component's list of names, opened.
  if (makes('players')) await (await import('./players-screenshots.js')).playersScreenshots(browser);
  // A Discord board's message (docs/boards.md), drawn from the JSON the board sends.
  if (makes('board')) await (await import('./board-screenshots.js')).boardScreenshots(browser);
} finally {
  await browser.close();
}
