// The widget's variants in Chromium, framed by a page of another origin that sizes each frame with docs/embed.md's
// postMessage snippet: heights that fit, the full widget's components updating live, dark colours, accessibility.
import { readFileSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { Browser, Frame, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seriousViolations } from '../axe.js';
import { type HtmlServer, launchChromium, serveHtml } from '../browser.js';
import { SCREENSHOTS } from '../screenshots.js';
import { type SeededWarden, startSeededWarden } from '../seeded-warden.js';
import { dialects } from '../store-dialects.js';
import { scaled } from '../time-scale.js';

const GAME = 'wdp_embed-frame-game-0123456789abcdef';
const WEB = 'wdp_embed-frame-web-0123456789abcdefg';
const CONFIG = `
organization: { name: Embed frame test }
monitors:
  - { key: game, name: Survival, type: heartbeat, pushToken: ${GAME}, config: { graceSec: 600 } }
  - { key: web, name: Website, type: heartbeat, pushToken: ${WEB}, config: { graceSec: 600 } }
pages:
  - slug: blockhaven
    title: Blockhaven Network
    components:
      - { name: Survival, monitor: game, group: Game servers }
      - { name: Website, monitor: web, group: Community }
`;

/** The host's listener, exactly as docs/embed.md gives it: what the docs promise is what is tested. */
const SNIPPET = /```html\n(<script>[\s\S]*?warden:embed:height[\s\S]*?<\/script>)\n```/.exec(
  readFileSync(join(process.cwd(), 'docs/embed.md'), 'utf8'),
)?.[1];

/** Frames at the documented sizes (the full one deliberately too short), the docs' snippet, and a record of the messages. */
function hostPage(warden: string): string {
  const frame = (id: string, query: string, width: number, height: number) =>
    `<iframe id="${id}" src="${warden}/s/blockhaven/embed${query}" title="Blockhaven status (${id})" width="${width}" height="${height}" style="border:0;max-width:100%;display:block;margin-bottom:8px"></iframe>`;
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Forum</title></head>
<body style="font-family:sans-serif;padding:16px;margin:0;background:#fff">
<main><h1>Our servers</h1>
${frame('compact', '', 320, 64)}
${frame('full', '?variant=full&theme=dark', 400, 80)}
${frame('component', '?component=survival', 320, 64)}
${frame('missing', '?component=Nether', 320, 64)}
</main>
<script>window.received = []; window.addEventListener('message', function (e) { window.received.push(e.data); });</script>
${SNIPPET}
</body></html>`;
}

describe('the widget framed by another site, sized by postMessage', () => {
  let warden: SeededWarden;
  let host: HtmlServer;
  let browser: Browser;
  const push = (token: string, body: Record<string, unknown>) =>
    fetch(`${warden.url}/api/push/${token}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    }).then((r) => r.status);

  beforeAll(async () => {
    expect(SNIPPET, 'docs/embed.md has the listener snippet').toBeTruthy();
    [warden, browser] = await Promise.all([
      startSeededWarden(dialects.find((d) => d.name === 'sqlite')!, CONFIG),
      launchChromium(),
    ]);
    host = await serveHtml(hostPage(warden.url));
    expect(await push(GAME, { status: 'up', players: 42, maxPlayers: 100 })).toBe(200);
    expect(await push(WEB, { status: 'up' })).toBe(200);
  });
  afterAll(async () => {
    await host?.close();
    await browser?.close();
    await warden?.close();
  });

  async function open(): Promise<{ page: Page; errors: string[]; frame(id: string): Promise<Frame> }> {
    const context = await browser.newContext({
      viewport: { width: 480, height: 700 },
      colorScheme: 'light',
      deviceScaleFactor: 2,
    });
    const page = await context.newPage();
    page.setDefaultTimeout(scaled(5000));
    const errors: string[] = [];
    // The 404 of the unknown component is the widget's answer, not an error of ours.
    page.on('console', (m) => m.type() === 'error' && !m.text().includes('404') && errors.push(m.text()));
    page.on('pageerror', (error) => errors.push(error.message));
    await page.goto(host.url);
    const frame = async (id: string) => {
      const content = await (await page.locator(`#${id}`).elementHandle())!.contentFrame();
      await content!.getByTestId('embed').waitFor();
      return content!;
    };
    return { page, errors, frame };
  }

  /** The iframe's height, and the height the widget's card takes without stretching to fill the frame. */
  async function heights(
    page: Page,
    frame: Frame,
    id: string,
  ): Promise<{ iframe: number; natural: number; scrolls: boolean }> {
    const iframe = await page.locator(`#${id}`).evaluate((el) => el.getBoundingClientRect().height);
    const { natural, scrolls } = await frame.evaluate(() => {
      const widget = document.querySelector<HTMLElement>('.widget')!;
      widget.style.minHeight = '0';
      const natural = widget.getBoundingClientRect().height;
      widget.style.minHeight = '';
      return { natural, scrolls: document.documentElement.scrollHeight > window.innerHeight };
    });
    return { iframe, natural: Math.ceil(natural), scrolls };
  }

  it('posts its height to the host, whose documented snippet sizes each frame to fit its content exactly', async () => {
    const { page, errors, frame } = await open();
    for (const id of ['compact', 'full', 'component', 'missing']) {
      const widget = await frame(id);
      await expect
        .poll(
          async () => {
            const h = await heights(page, widget, id);
            return h.iframe === h.natural && !h.scrolls;
          },
          { message: `${id}: the iframe as tall as the widget's content` },
        )
        .toBe(true);
    }
    // The full widget needs more than its too-short frame: it grew. The compact one fits its documented 64 px.
    expect((await heights(page, await frame('full'), 'full')).iframe).toBeGreaterThan(80);
    expect((await heights(page, await frame('compact'), 'compact')).iframe).toBeLessThanOrEqual(64);
    const received = (await page.evaluate(() => (window as unknown as { received: unknown[] }).received)) as {
      type: string;
      slug: string;
      height: number;
    }[];
    expect(
      received.filter((m) => m.type === 'warden:embed:height').every((m) => m.slug === 'blockhaven' && m.height > 0),
    ).toBe(true);
    expect(await (await frame('missing')).getByTestId('embed-missing').textContent()).toBe(
      'This status page has no such component.',
    );
    expect(await (await frame('component')).getByTestId('embed-players').textContent()).toBe('42 / 100 online');
    expect(errors).toEqual([]);

    // Screenshots of the compact and full widgets as a host shows them.
    await mkdir(SCREENSHOTS, { recursive: true });
    await page.locator('#compact').screenshot({ path: join(SCREENSHOTS, 'embed-compact-320x64.png') });
    await page.locator('#full').screenshot({ path: join(SCREENSHOTS, 'embed-full-400.png') });
    // No serious accessibility problem on the host page with its four widgets (axe reads into the frames).
    expect(await seriousViolations(page)).toEqual([]);
    await page.context().close();
  });

  it('lists the components in the full widget, dark as asked, and keeps them current, the frame growing with an incident', async () => {
    const { page, errors, frame } = await open();
    const full = await frame('full');
    const rows = full.getByTestId('embed-component');
    expect(
      await rows.evaluateAll((els) => els.map((el) => `${el.getAttribute('data-state')}: ${el.textContent}`)),
    ).toEqual(['operational: Survival42 / 100 onlineOperational', 'operational: WebsiteOperational']);
    expect(await full.locator('h2.group').allTextContents()).toEqual(['Game servers', 'Community']);
    // Dark colours, while the host page and the reader's scheme are light.
    const colours = await full
      .getByTestId('embed')
      .evaluate((el) => [getComputedStyle(el).backgroundColor, getComputedStyle(el).color]);
    expect(colours).toEqual(['rgb(21, 27, 35)', 'rgb(230, 237, 243)']);
    const before = (await heights(page, full, 'full')).iframe;

    // A push turns the website down: the row follows within a second or so (no reload: the stream, then a refetch).
    expect(await fetch(`${warden.url}/api/push/${WEB}?status=down&msg=refused`).then((r) => r.status)).toBe(200);
    await expect
      .poll(() => full.locator('[data-testid="embed-component"]').nth(1).getAttribute('data-state'), { interval: 50 })
      .toBe('down');
    expect(await full.getByTestId('embed').getAttribute('data-state')).not.toBe('operational');

    // An incident opens: its title appears, and the host's frame grows to fit it.
    const opened = await fetch(`${warden.url}/api/v1/pages/blockhaven/incidents`, {
      method: 'POST',
      headers: { authorization: `Bearer ${warden.writeKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({ title: 'Website unreachable', message: 'We are looking into it.' }),
    });
    expect(opened.status).toBe(201);
    await expect
      .poll(() => full.getByTestId('embed-incident').allTextContents())
      .toEqual(['Website unreachable Investigating']);
    await expect
      .poll(async () => {
        const h = await heights(page, full, 'full');
        return h.iframe > before && h.iframe === h.natural;
      })
      .toBe(true);
    expect(await full.locator('[data-testid="embed-incident"] a').getAttribute('target')).toBe('_blank');
    expect(errors).toEqual([]);
    await page.context().close();
  });

  it('is a centred card of its natural size when opened alone in a big window', async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    const page = await context.newPage();
    await page.goto(`${warden.url}/s/blockhaven/embed?variant=full`);
    const box = (await page.getByTestId('embed').boundingBox())!;
    expect(box.width).toBeGreaterThan(400);
    expect(box.height).toBeLessThan(400);
    expect(Math.abs(box.x + box.width / 2 - 640)).toBeLessThan(2);
    expect(Math.abs(box.y + box.height / 2 - 400)).toBeLessThan(2);
    await page.screenshot({ path: join(SCREENSHOTS, 'embed-full-alone.png') });
    await context.close();
  });
});
