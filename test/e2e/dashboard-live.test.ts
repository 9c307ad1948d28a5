// Live updates in real Chromium: the monitor list follows WS /api/v1/live. A TCP monitor against a local fake server
// is up; the fake closes, the next check fails, and the row turns down (red dot and the word) without a reload.
import { createServer, type Server, type Socket } from 'node:net';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signedInUser } from '../accounts.js';
import { launchChromium } from '../browser.js';
import { type SeededWarden, startSeededWarden } from '../seeded-warden.js';
import { dialects } from '../store-dialects.js';
import { scaled } from '../time-scale.js';

describe('live updates of the dashboard', () => {
  let fake: Server;
  const sockets = new Set<Socket>();
  let warden: SeededWarden;
  let browser: Browser;
  let port: number;
  beforeAll(async () => {
    fake = createServer((socket) => {
      sockets.add(socket);
      socket.on('close', () => sockets.delete(socket));
    });
    await new Promise<void>((resolve) => fake.listen(0, '127.0.0.1', resolve));
    port = (fake.address() as { port: number }).port;
    const yaml = `
organization: { key: acme, name: Acme }
monitors:
  - { key: game, name: Game server, type: tcp, retries: 0, intervalSec: 3600, config: { host: 127.0.0.1, port: ${port} } }
`;
    warden = await startSeededWarden(dialects.find((d) => d.name === 'sqlite')!, yaml, {
      WARDEN_PROBE_PRIVATE_TARGETS: 'allow',
    });
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
    await warden?.close();
    for (const socket of sockets) socket.destroy();
    fake?.close();
  });

  /** Checks the monitor now, as the runner would (history, state, the live stream). */
  const checkNow = async () => {
    const res = await fetch(`${warden.url}/api/v1/monitors/${warden.monitors.game?.id}/check`, {
      method: 'POST',
      headers: { authorization: `Bearer ${warden.writeKey}` },
    });
    expect(res.status).toBe(200);
    return (await res.json()) as { state: string };
  };

  it('turns the row down, in red and in words, when the monitor fails, without a reload', {
    timeout: scaled(30_000),
  }, async () => {
    expect(await checkNow()).toMatchObject({ state: 'up' });
    const { testContext } = await import('../seed.js');
    const owner = await signedInUser(
      { ...testContext(warden.opened.store, { now: () => Date.now() }), organizationId: warden.organizationId },
      [{ organizationId: warden.organizationId, role: 'viewer' }],
    );
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    try {
      await context.addCookies([{ name: 'warden_session', value: owner.token, url: warden.url }]);
      const page = await context.newPage();
      page.setDefaultTimeout(scaled(8000));
      await page.goto(`${warden.url}/app/monitors`);
      const row = page.getByRole('table', { name: 'Monitors' }).getByRole('row', { name: /Game server/ });
      await expect.poll(() => row.textContent()).toContain('Up');
      // The stream is open, and says so in words.
      await page.getByRole('status').filter({ hasText: 'Live updates on' }).waitFor({ state: 'attached' });
      expect(await page.locator('[data-live-status]').getAttribute('data-live-status')).toBe('live');
      await page.evaluate(() => Object.assign(window, { wardenTestMark: 'same page' }));
      const requests: string[] = [];
      page.on('request', (request) => requests.push(request.url()));

      await new Promise<void>((resolve) => fake.close(() => resolve()));
      for (const socket of sockets) socket.destroy();
      expect(await checkNow()).toMatchObject({ state: 'down' });

      await expect.poll(() => row.textContent(), { timeout: 5000 }).toContain('Down');
      expect(await row.locator('circle').first().getAttribute('fill')).toBe('var(--mantine-color-red-filled)');
      // The same document all along, and the list was not read again: the stream's message did it.
      expect(await page.evaluate(() => (window as unknown as { wardenTestMark?: string }).wardenTestMark)).toBe(
        'same page',
      );
      expect(requests.filter((url) => new URL(url).pathname === '/api/v1/monitors')).toEqual([]);
    } finally {
      await context.close();
    }
  });
});
