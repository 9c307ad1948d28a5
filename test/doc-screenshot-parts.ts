// What the notification pictures of docs/notifications.md share (test/doc-screenshots.ts and the channel renderings it
// loads): the fonts, the severity emoji drawn (no emoji font is installed), the payloads a channel really sends, and
// the shot itself, checked for what a reader notices first.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import type { ChannelDefinition, NotificationEvent } from '../src/notify/channels/channel.js';
import { escapeHtml } from '../src/notify/channels/email.js';
import { serveHtml } from './browser.js';
import { type Answer, type ReceivedRequest, sendContext, startReceiver } from './fakes/notify-receivers.js';
import { countNear, distinctColours, readPng } from './pixels.js';

export const IMAGES = join(process.cwd(), 'docs', 'images');
export const SCALE = 2;

export { escapeHtml };

export function fontFaces(): string {
  const face = (weight: number) => {
    const file = readFileSync(
      join(process.cwd(), 'node_modules', '@fontsource', 'inter', 'files', `inter-latin-${weight}-normal.woff2`),
    ).toString('base64');
    return `@font-face{font-family:Inter;font-weight:${weight};src:url(data:font/woff2;base64,${file}) format('woff2')}`;
  };
  return [400, 600, 700].map(face).join('');
}

/** The severity colours every channel uses. */
export const hex = (event: NotificationEvent) =>
  ({ critical: '#e74c3c', warning: '#f39c12', info: '#3498db', ok: '#2ecc71' })[event.severity];

/** The four severity emoji as the apps draw them (images of their own): a red, orange or blue circle, a green check. */
const EMOJI: Record<string, string> = {
  '🔴': '<circle cx="8" cy="8" r="7" fill="#dd2e44"/>',
  '🟠': '<circle cx="8" cy="8" r="7" fill="#f4900c"/>',
  '🔵': '<circle cx="8" cy="8" r="7" fill="#55acee"/>',
  '✅': '<rect x="1" y="1" width="14" height="14" rx="3" fill="#77b255"/><path d="M4.5 8.5l2.3 2.3 4.7-5.3" stroke="#fff" stroke-width="1.8" fill="none"/>',
};

/** HTML with the severity emoji in it drawn as small inline images. */
export function withEmoji(html: string): string {
  return html.replace(
    /🔴|🟠|🔵|✅/gu,
    (emoji) =>
      `<svg class="emoji" viewBox="0 0 16 16" width="1.1em" height="1.1em" style="vertical-align:-0.18em" role="img" aria-label="${emoji}">${EMOJI[emoji]}</svg>`,
  );
}

/** Markdown as the chat apps show Warden's text: `\x` escapes and [label](url) links; everything else is text. */
export function markdownHtml(text: string, linkStyle = ''): string {
  const plain = (s: string) => escapeHtml(s.replace(/\\(.)/g, '$1'));
  let html = '';
  let last = 0;
  for (const link of text.matchAll(/\[((?:\\.|[^\]\\])*)\]\(<?(https?:\/\/[^)\s>]+)>?\)/g)) {
    html += plain(text.slice(last, link.index));
    html += `<a href="${escapeHtml(link[2] as string)}" style="${linkStyle}">${plain(link[1] as string)}</a>`;
    last = (link.index as number) + link[0].length;
  }
  return html + plain(text.slice(last));
}

/** What a channel sends for each event, as a fake receiver got it (the receiver answering `answer`). */
export async function channelRequests(
  // biome-ignore lint/suspicious/noExplicitAny: any channel, whatever its config type.
  channel: ChannelDefinition<any>,
  config: (origin: string) => Record<string, unknown>,
  events: NotificationEvent[],
  answer: Answer = { status: 200, body: '{}' },
): Promise<ReceivedRequest[]> {
  const receiver = await startReceiver(answer);
  try {
    for (const event of events) {
      const outcome = await channel.send(event, channel.config.parse(config(receiver.url)), sendContext());
      if (outcome.kind !== 'sent')
        throw new Error(`the ${channel.type} channel did not send: ${JSON.stringify(outcome)}`);
    }
    return [...receiver.requests];
  } finally {
    await receiver.close();
  }
}

/** Screenshots one element into docs/images/<file>, checked for what a reader notices first: not blank, the severity colour drawn. */
export async function shoot(
  page: Page,
  html: string,
  selector: string,
  file: string,
  colours: string[],
): Promise<void> {
  const server = await serveHtml(html);
  try {
    await page.goto(server.url);
    await page.evaluate(() => document.fonts.ready);
    if (selector === '#mail') {
      // Fit the frame to its document, so the whole message shows and nothing more.
      await page.waitForFunction(
        () => (document.querySelector('iframe') as HTMLIFrameElement).contentDocument?.readyState === 'complete',
      );
      await page.evaluate(() => {
        const frame = document.querySelector('iframe') as HTMLIFrameElement;
        frame.style.height = '0';
        frame.style.height = `${(frame.contentDocument as Document).documentElement.scrollHeight}px`;
      });
    }
    const bytes = await page.locator(selector).screenshot();
    const png = readPng(bytes);
    if (distinctColours(png) < 20) throw new Error(`${file} looks blank`);
    for (const colour of colours)
      if (countNear(png, colour, 12) < 50 * SCALE) throw new Error(`${file}: the colour ${colour} is not drawn`);
    writeFileSync(join(IMAGES, file), bytes);
    console.log(`docs/images/${file}: ${png.width}×${png.height}`);
  } finally {
    await server.close();
  }
}
