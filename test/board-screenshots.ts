// `npm run screenshots board`: docs/images/board-discord.png, the message a Discord board posts for a game network with
// a server down and an incident open, drawn from the exact JSON the board sends (discordBoardMessage) by a small HTML
// rendering after Discord's dark theme — Discord's markdown (bold, quotes, code, links) and its <t:…> timestamps, which
// each reader sees in their own time. A rendering, not a capture of Discord's client. Emoji need a colour emoji font
// (Debian: fonts-noto-color-emoji).
import type { Browser } from 'playwright-core';
import { discordBoardMessage } from '../src/notify/boards/discord-board.js';
import { escapeHtml, fontFaces, SCALE, shoot } from './doc-screenshot-parts.js';
import { activeIncidentSnapshot, FIXTURE_NOW } from './fakes/snapshots.js';

const MINUTE = 60_000;

/** Discord's <t:seconds:style>, as a reader at FIXTURE_NOW sees it (UTC). */
function timestamp(seconds: number, style: string): string {
  const at = seconds * 1000;
  if (style === 'R') {
    const minutes = Math.round((at - FIXTURE_NOW) / MINUTE);
    const span =
      Math.abs(minutes) >= 120 ? `${Math.round(Math.abs(minutes) / 60)} hours` : `${Math.abs(minutes)} minutes`;
    return minutes >= 0 ? `in ${span}` : `${span} ago`;
  }
  return new Date(at).toLocaleString('en-GB', { timeZone: 'UTC', dateStyle: 'long', timeStyle: 'short' });
}

/** The little of Discord's markdown the board writes: **bold**, `code`, [links](…), > quotes, \-escapes, timestamps. */
function discordMarkdown(text: string): string {
  return text
    .split('\n')
    .map((line) => {
      const quote = line.startsWith('> ');
      // Timestamps become their text first, marked with private-use characters that escaping leaves alone.
      const timed = (quote ? line.slice(2) : line).replace(
        /<t:(\d+):([tfR])>/g,
        (_, seconds: string, style: string) => `\uE000${timestamp(Number(seconds), style)}\uE001`,
      );
      let html = escapeHtml(timed)
        .replace(/\uE000/g, '<span class="ts">')
        .replace(/\uE001/g, '</span>')
        .replace(/\*\*((?:\\.|[^*])+)\*\*/g, '<b>$1</b>')
        .replace(/`([^`]+)`/g, '<code>$1</code>')
        .replace(/\[([^\]]+)\]\((https:[^)\s]+)\)/g, '<a href="$2">$1</a>')
        .replace(/\\(.)/g, '$1');
      if (quote) html = `<span class="quote">${html}</span>`;
      return html;
    })
    .join('<br>');
}

function boardHtml(): string {
  const snapshot = activeIncidentSnapshot();
  const { payload } = discordBoardMessage(snapshot, { componentIds: null }, FIXTURE_NOW);
  const embed = payload.embeds[0]!;
  const colour = `#${embed.color.toString(16).padStart(6, '0')}`;
  const fields = embed.fields
    .map(
      (f) =>
        `<div class="field"><div class="name">${discordMarkdown(f.name)}</div><div class="value">${discordMarkdown(f.value)}</div></div>`,
    )
    .join('');
  return `<!doctype html><html><head><meta charset="utf-8"><style>${fontFaces()}
    body{margin:0;background:#313338;font-family:Inter,'Noto Color Emoji',sans-serif;color:#dbdee1}
    #chat{width:680px;padding:16px 16px 8px}
    .message{display:flex;gap:16px}
    .avatar{flex:none;width:40px;height:40px;border-radius:50%;background:#5865f2;color:#fff;font-weight:700;display:grid;place-items:center}
    .head{display:flex;align-items:center;gap:6px;margin-bottom:4px}
    .user{color:#f2f3f5;font-weight:600;font-size:15px}
    .app{background:#5865f2;color:#fff;font-size:10px;font-weight:600;padding:1px 4px;border-radius:3px}
    .time,.edited{color:#949ba4;font-size:12px;margin-left:2px}
    .embed{max-width:560px;background:#2b2d31;border-left:4px solid;border-radius:4px;padding:8px 16px 16px 12px;box-sizing:border-box}
    .title{display:block;margin-top:8px;font-weight:600;font-size:15px;color:#00a8fc;text-decoration:none}
    .description{margin-top:8px;font-size:14px;line-height:1.375}
    .quote{display:inline-block;border-left:4px solid #4e5058;padding-left:10px}
    .fields{display:grid;grid-template-columns:repeat(3,1fr);gap:8px 12px;margin-top:10px}
    .name{font-size:14px;font-weight:600;color:#f2f3f5;margin-bottom:2px}
    .value{font-size:14px;line-height:1.375}
    code{background:#1e1f22;border-radius:3px;padding:0 3px;font-size:12.5px}
    a{color:#00a8fc;text-decoration:none}
    .ts{background:#3f4147;border-radius:3px;padding:0 2px}
    .footer{margin-top:8px;font-size:12px;color:#b5bac1}
  </style></head><body><div id="chat"><div class="message"><div class="avatar">W</div><div class="body">
    <div class="head"><span class="user">${escapeHtml(payload.username)}</span><span class="app">APP</span><span class="time">Today at 14:05</span><span class="edited">(edited)</span></div>
    <div class="embed" style="border-left-color:${colour}"><a class="title" href="${escapeHtml(embed.url)}">${escapeHtml(embed.title)}</a>
      <div class="description">${discordMarkdown(embed.description)}</div>
      <div class="fields">${fields}</div>
      <div class="footer">${escapeHtml(embed.footer.text)} • Today at 14:05</div>
    </div></div></div></div></body></html>`;
}

export async function boardScreenshots(browser: Browser): Promise<void> {
  const page = await browser.newPage({ viewport: { width: 720, height: 900 }, deviceScaleFactor: SCALE });
  try {
    const colour = `#${discordBoardMessage(activeIncidentSnapshot(), { componentIds: null }, FIXTURE_NOW).payload.embeds[0]!.color.toString(16).padStart(6, '0')}`;
    await shoot(page, boardHtml(), '#chat', 'board-discord.png', [colour]);
  } finally {
    await page.close();
  }
}
