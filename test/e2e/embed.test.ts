// The embed widget in Chromium, inside an iframe of another origin: it loads, follows the live stream, light and dark.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { STATE_COLOUR } from '../../src/render/html-layout.js';
import { type HtmlServer, launchChromium, serveHtml } from '../browser.js';
import { type ServerProcess, startServer } from '../cli-process.js';
import { countNear } from '../pixels.js';
import { expectLooks, regionOf, saveScreenshot } from '../screenshots.js';

const TOKEN = 'wdp_embed-e2e-token-0123456789abcdef';
const CONFIG = `
organization: { name: Embed test }
monitors:
  - { key: game, name: Survival, type: heartbeat, pushToken: ${TOKEN}, config: { graceSec: 600 } }
pages:
  - slug: blockhaven
    title: Blockhaven Network
    components: [{ name: Survival, monitor: game }]
`;

/** A host page on another origin with the README's snippet, once following the reader's scheme and once forced dark. */
function hostPage(warden: string): string {
  const frame = (query: string, title: string) =>
    `<iframe src="${warden}/s/blockhaven/embed${query}" title="${title}" width="360" height="64" style="border:0;max-width:100%" loading="lazy"></iframe>`;
  return `<!doctype html><html><head><meta charset="utf-8"><title>Forum</title></head>
<body style="font-family:sans-serif;padding:16px;margin:0">
<p>Our servers:</p>
${frame('', 'Blockhaven status')}
<p>Forced dark:</p>
${frame('?theme=dark', 'Blockhaven status (dark)')}
</body></html>`;
}

describe('the embed widget on another site', () => {
  const dir = mkdtempSync(join(tmpdir(), 'warden-embed-'));
  let server: ServerProcess;
  let host: HtmlServer;
  let browser: Browser;
  const push = (status: 'up' | 'down') =>
    fetch(`${server.url}/api/push/${TOKEN}?status=${status}`).then((response) => response.status);
  const pushPlayers = () =>
    fetch(`${server.url}/api/push/${TOKEN}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ status: 'up', players: 42, maxPlayers: 100 }),
    }).then((response) => response.status);

  beforeAll(async () => {
    writeFileSync(join(dir, 'warden.yaml'), CONFIG);
    [server, browser] = await Promise.all([
      startServer([], { WARDEN_DATA_DIR: dir, WARDEN_CONFIG: join(dir, 'warden.yaml') }),
      launchChromium(),
    ]);
    host = await serveHtml(hostPage(server.url));
    expect(await pushPlayers()).toBe(200);
  });
  afterAll(async () => {
    await host?.close();
    await browser?.close();
    await server?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  /** `listening` resolves once the widget's live stream has its first message (the server greets it with a snapshot). */
  async function open(
    colorScheme: 'light' | 'dark',
  ): Promise<{ page: Page; errors: string[]; listening: Promise<void> }> {
    const context = await browser.newContext({
      viewport: { width: 420, height: 250 },
      colorScheme,
      deviceScaleFactor: 2,
    });
    const page = await context.newPage();
    const errors: string[] = [];
    page.on('console', (message) => message.type() === 'error' && errors.push(message.text()));
    page.on('pageerror', (error) => errors.push(error.message));
    const listening = new Promise<void>((resolve) =>
      page.on('websocket', (socket) => socket.once('framereceived', () => resolve())),
    );
    await page.goto(host.url);
    return { page, errors, listening };
  }

  it('loads in a cross-origin iframe, shows the page and links to it in a new tab', async () => {
    expect(new URL(host.url).origin).not.toBe(new URL(server.url).origin);
    const { page, errors } = await open('light');
    const widget = page.frameLocator('iframe[title="Blockhaven status"]');
    await expect.poll(() => widget.getByTestId('embed').getAttribute('data-state')).toBe('operational');
    expect(await widget.locator('.name').textContent()).toBe('Blockhaven Network↗');
    expect(await widget.getByTestId('embed-label').textContent()).toBe('All systems operational');
    expect(await widget.getByTestId('embed-players').textContent()).toBe('42 / 100 online');
    const link = widget.getByTestId('embed-link');
    expect(await link.getAttribute('target')).toBe('_blank');
    expect(await link.getAttribute('href')).toBe(`${server.url}/s/blockhaven`);
    expect(errors).toEqual([]);
    await page.context().close();
  });

  it('updates itself from the live stream, players included', async () => {
    const { page, errors, listening } = await open('light');
    const widget = page.frameLocator('iframe[title="Blockhaven status"]');
    await expect.poll(() => widget.getByTestId('embed').getAttribute('data-state')).toBe('operational');
    await listening;
    // The widget polls once a minute at most: an update within seconds came over the stream.
    expect(await push('down')).toBe(200);
    await expect
      .poll(() => widget.getByTestId('embed').getAttribute('data-state'), { interval: 50, timeout: 5000 })
      .toBe('down');
    expect(await widget.getByTestId('embed-label').textContent()).toBe('Major outage');
    expect(await widget.getByTestId('embed-players').isVisible()).toBe(false);
    // The reader sees it turn red: the state's dot and words in the down colour.
    const shot = await saveScreenshot(page, 'embed-down.png', {});
    const frame = await regionOf(page.locator('iframe[title="Blockhaven status"]'));
    expect(countNear(shot, STATE_COLOUR.down, 24, frame), 'pixels of the down colour in the widget').toBeGreaterThan(
      300,
    );
    expect(errors).toEqual([]);
    await page.context().close();
    expect(await pushPlayers()).toBe(200);
  });

  it('is readable in light and dark, and forced dark with ?theme=dark (screenshots)', async () => {
    for (const scheme of ['light', 'dark'] as const) {
      const { page, errors } = await open(scheme);
      const auto = page.frameLocator('iframe[title="Blockhaven status"]');
      const dark = page.frameLocator('iframe[title="Blockhaven status (dark)"]');
      await expect.poll(() => auto.getByTestId('embed').getAttribute('data-state')).toBe('operational');
      await expect.poll(() => dark.getByTestId('embed').getAttribute('data-state')).toBe('operational');
      const background = (frame: typeof auto) =>
        frame.getByTestId('embed').evaluate((el) => getComputedStyle(el).backgroundColor);
      expect(await background(auto)).toBe(scheme === 'dark' ? 'rgb(21, 27, 35)' : 'rgb(255, 255, 255)');
      expect(await background(dark)).toBe('rgb(21, 27, 35)');
      // The widget follows the reader's scheme, or is dark when asked, whatever the host page looks like.
      const file = `embed-${scheme}.png`;
      const shot = await saveScreenshot(page, file, {});
      expectLooks(
        shot,
        scheme,
        `${file}, the widget`,
        await regionOf(page.locator('iframe[title="Blockhaven status"]')),
      );
      expectLooks(
        shot,
        'dark',
        `${file}, the widget forced dark`,
        await regionOf(page.locator('iframe[title="Blockhaven status (dark)"]')),
      );
      expect(errors).toEqual([]);
      await page.context().close();
    }
  });
});
