// A monitor created or resumed is checked at once, not at its spread first run (up to an interval later): through the
// API against a local TCP server, its first check is stored within 2 s; and its screen in Chromium, open while it is
// paused, fills with its first result when it is resumed, without a reload (the organization's live stream).
import { createServer, type Server, type Socket } from 'node:net';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signedInUser } from '../accounts.js';
import { launchChromium } from '../browser.js';
import { type SeededWarden, startSeededWarden } from '../seeded-warden.js';
import { dialects } from '../store-dialects.js';
import { scaled } from '../time-scale.js';

describe('a new monitor is checked at once', () => {
  let target: Server;
  const sockets = new Set<Socket>();
  let warden: SeededWarden;
  let browser: Browser;
  let port: number;
  beforeAll(async () => {
    target = createServer((socket) => {
      sockets.add(socket);
      socket.on('close', () => sockets.delete(socket));
    });
    await new Promise<void>((resolve) => target.listen(0, '127.0.0.1', resolve));
    port = (target.address() as { port: number }).port;
    // One monitor from the start, so the runner has loaded its list before the test adds to it.
    const yaml = `
organization: { key: acme, name: Acme }
monitors:
  - { key: existing, name: Existing, type: tcp, intervalSec: 3600, config: { host: 127.0.0.1, port: ${port} } }
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
    target?.close();
  });

  const api = async (method: string, path: string, body?: unknown) => {
    const res = await fetch(`${warden.url}/api/v1${path}`, {
      method,
      headers: { authorization: `Bearer ${warden.writeKey}`, 'content-type': 'application/json' },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    return { status: res.status, body: (await res.json()) as Record<string, unknown> };
  };
  const checksOf = async (id: string) =>
    ((await api('GET', `/monitors/${id}/history?limit=10`)).body.checks ?? []) as { ok: boolean }[];

  it('stores the first check of a monitor created through the API within 2 s, though its interval is an hour', async () => {
    const created = await api('POST', '/monitors', {
      key: 'fresh',
      name: 'Fresh',
      type: 'tcp',
      intervalSec: 3600,
      config: { host: '127.0.0.1', port },
    });
    expect(created.status).toBe(201);
    const at = Date.now();
    const id = created.body.id as string;
    await expect.poll(() => checksOf(id), { timeout: 2000, interval: 100 }).toHaveLength(1);
    expect(Date.now() - at).toBeLessThan(2000);
    expect((await checksOf(id))[0]).toMatchObject({ ok: true });
    expect((await api('GET', `/monitors/${id}`)).body).toMatchObject({ state: 'up' });
  });

  it("fills a resumed monitor's screen with its first result without a reload", {
    timeout: scaled(30_000),
  }, async () => {
    const created = await api('POST', '/monitors', {
      key: 'later',
      name: 'Later',
      type: 'tcp',
      enabled: false,
      intervalSec: 3600,
      config: { host: '127.0.0.1', port },
    });
    expect(created.status).toBe(201);
    const id = created.body.id as string;
    const { testContext } = await import('../seed.js');
    const viewer = await signedInUser(
      { ...testContext(warden.opened.store, { now: () => Date.now() }), organizationId: warden.organizationId },
      [{ organizationId: warden.organizationId, role: 'viewer' }],
    );
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    try {
      await context.addCookies([{ name: 'warden_session', value: viewer.token, url: warden.url }]);
      const page = await context.newPage();
      page.setDefaultTimeout(scaled(8000));
      await page.goto(`${warden.url}/app/monitors/${id}`);
      await page.getByRole('heading', { name: 'Later' }).waitFor();
      await page.getByText('No checks yet').waitFor();
      await page.locator('[data-live-status="live"]').waitFor({ state: 'attached' });
      await page.evaluate(() => Object.assign(window, { wardenTestMark: 'same page' }));

      expect((await api('PATCH', `/monitors/${id}`, { enabled: true })).status).toBe(200);
      const checks = page.getByRole('table', { name: /Recent checks/ });
      await checks.getByRole('cell', { name: 'Passed' }).waitFor({ timeout: 5000 });
      expect(await page.getByText('No checks yet').count()).toBe(0);
      expect(await page.evaluate(() => (window as unknown as { wardenTestMark?: string }).wardenTestMark)).toBe(
        'same page',
      );
    } finally {
      await context.close();
    }
  });
});
