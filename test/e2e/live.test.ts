// The live stream end to end: a real server process, a heartbeat push, WebSocket clients and the HTML page in Chromium.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { renderHtmlPage } from '../../src/render/html-page.js';
import type { LiveMessage } from '../../src/services/live/messages.js';
import { launchChromium, serveHtml } from '../browser.js';
import { type ServerProcess, startServer } from '../cli-process.js';
import { operationalSnapshot, partialOutageSnapshot } from '../fakes/snapshots.js';
import { dialects, type OpenedStore } from '../store-dialects.js';

const LIVE_PUSH_TOKEN = 'wdp_live-e2e-token-0123456789abcdef';

const CONFIG = `
organization: { name: Live test }
monitors:
  - { key: job, name: Nightly job, type: heartbeat, pushToken: ${LIVE_PUSH_TOKEN}, config: { graceSec: 600 } }
pages:
  - slug: live
    title: Live test
    components: [{ name: Nightly job, monitor: job }]
`;

/** A stream client that records every message. */
async function listen(url: string): Promise<{ ws: WebSocket; messages: LiveMessage[]; closed: Promise<number> }> {
  const ws = new WebSocket(url);
  const messages: LiveMessage[] = [];
  ws.on('message', (data) => messages.push(JSON.parse(String(data))));
  const closed = new Promise<number>((resolve) => ws.on('close', (code) => resolve(code)));
  await new Promise((resolve, reject) => {
    ws.once('open', resolve);
    ws.once('error', reject);
  });
  return { ws, messages, closed };
}

for (const dialect of dialects) {
  describe.skipIf(!dialect.available)(`the live stream of a real server on ${dialect.name}`, () => {
    const dir = mkdtempSync(join(tmpdir(), 'warden-live-'));
    let opened: OpenedStore;
    let server: ServerProcess;
    let browser: Browser;
    const push = (status: 'up' | 'down', msg: string) =>
      fetch(`${server.url}/api/push/${LIVE_PUSH_TOKEN}?status=${status}&msg=${encodeURIComponent(msg)}`).then(
        (r) => r.status,
      );

    beforeAll(async () => {
      writeFileSync(join(dir, 'warden.yaml'), CONFIG);
      opened = await dialect.open();
      [server, browser] = await Promise.all([
        startServer([], { WARDEN_DATA_DIR: dir, ...opened.env, WARDEN_CONFIG: join(dir, 'warden.yaml') }),
        launchChromium(),
      ]);
    });
    afterAll(async () => {
      await browser?.close();
      await server?.stop();
      await opened?.cleanup();
      rmSync(dir, { recursive: true, force: true });
    });

    it('sends a snapshot on connect, then a push’s change within a fraction of a second', async () => {
      const client = await listen(`${server.url.replace('http', 'ws')}/s/live/live`);
      await expect.poll(() => client.messages.length).toBeGreaterThan(0);
      expect(client.messages[0]).toMatchObject({ type: 'snapshot', snapshot: { page: { slug: 'live' } } });
      const sent = Date.now();
      expect(await push('down', 'backup failed')).toBe(200);
      await expect
        .poll(() => client.messages.find((m) => m.type === 'overall'), { interval: 10, timeout: 5000 })
        .toBeTruthy();
      const elapsed = Date.now() - sent;
      const update = client.messages.find((m) => m.type === 'monitor.update');
      expect(update).toMatchObject({
        previousState: 'unknown',
        component: { name: 'Nightly job', state: 'down', live: { message: 'backup failed' } },
      });
      expect(Math.abs((update?.at ?? 0) - sent)).toBeLessThan(5000);
      expect(client.messages.find((m) => m.type === 'overall')).toMatchObject({ state: 'down', label: 'Major outage' });
      expect(elapsed).toBeLessThan(1000);
      client.ws.close();
    });

    it('keeps the HTML page current from the stream, long before its 30 s poll', async () => {
      expect(await push('down', 'still failing')).toBe(200);
      const page = await browser.newPage();
      const errors: string[] = [];
      page.on('console', (message) => message.type() === 'error' && errors.push(message.text()));
      // The server greets a stream with a snapshot: once it arrives, the page's script is listening.
      const listening = new Promise<void>((resolve) =>
        page.on('websocket', (socket) => socket.once('framereceived', () => resolve())),
      );
      await page.goto(`${server.url}/s/live`);
      const banner = page.getByTestId('overall');
      await expect.poll(() => banner.getAttribute('data-state')).toBe('down');
      await listening;
      const started = Date.now();
      expect(await push('up', 'backup done')).toBe(200);
      await expect.poll(() => banner.getAttribute('data-state'), { interval: 50, timeout: 8000 }).toBe('operational');
      expect(Date.now() - started).toBeLessThan(5000);
      expect(errors).toEqual([]);
      await page.close();
    });

    it('closes streams with 1001 when the server shuts down', async () => {
      const client = await listen(`${server.url.replace('http', 'ws')}/s/live/live`);
      const { code, ms } = await server.stop();
      expect(code).toBe(0);
      expect(await client.closed).toBe(1001);
      expect(ms).toBeLessThan(5000);
    });
  });
}

describe('the HTML page without a stream', () => {
  it('falls back to polling when its live stream cannot be opened', async () => {
    const browser = await launchChromium();
    const options = { jsonPath: '/status.json', markdownPath: '/status.md', livePath: '/s/x/live', refreshSeconds: 1 };
    // A plain HTTP server: the WebSocket handshake fails, so the page must poll.
    const served = await serveHtml(renderHtmlPage(operationalSnapshot(), options).body);
    try {
      const page = await browser.newPage();
      await page.goto(served.url);
      served.setHtml(
        renderHtmlPage({ ...partialOutageSnapshot(), generatedAt: partialOutageSnapshot().generatedAt + 1000 }, options)
          .body,
      );
      await expect
        .poll(() => page.getByTestId('overall').getAttribute('data-state'), { timeout: 8000 })
        .toBe('degraded');
    } finally {
      await served.close();
      await browser.close();
    }
  });
});
