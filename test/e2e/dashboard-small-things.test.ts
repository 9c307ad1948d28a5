// Issue 34's small things in real Chromium against a real Warden serving dist/web (built by `npm test`'s `npm run
// build`): the empty monitor list points at its button, a paused monitor says since when it is paused, the unknown
// dot shows on the dark page, a phone keeps the beats and the uptime, and the operator's owner removes the demo.
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type SignedInUser, signedInUser } from '../accounts.js';
import { launchChromium } from '../browser.js';
import { type SeededWarden, startSeededWarden } from '../seeded-warden.js';
import { dialects } from '../store-dialects.js';
import { scaled } from '../time-scale.js';

const SURVIVAL = 'wdp_smallThingsSurvivalHeartbeat01';
const LOBBY = 'wdp_smallThingsLobbyHeartbeat0123';

// seed.js after the server's modules (see dashboard-shell.test.ts): loaded first, the API routes fail to load.
const seeding = () => import('../seed.js');

describe('the dashboard’s small things', () => {
  let warden: SeededWarden;
  let browser: Browser;
  let owner: SignedInUser;
  beforeAll(async () => {
    warden = await startSeededWarden(
      dialects.find((d) => d.name === 'sqlite')!,
      'organization: { key: acme, name: Acme }\n',
    );
    const { testContext } = await seeding();
    const context = {
      ...testContext(warden.opened.store, { now: () => Date.now() }),
      organizationId: warden.organizationId,
    };
    owner = await signedInUser(context, [{ organizationId: warden.organizationId, role: 'owner' }]);
    // The demo as a server keeps it once the operator has an organization of their own: paused, off the public pages.
    const [{ applyConfig }, { demoConfig }] = await Promise.all([
      import('../../src/config/apply.js'),
      import('../../src/config/demo.js'),
    ]);
    await applyConfig(testContext(warden.opened.store), demoConfig(8080, undefined, { retired: true }));
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
    await warden?.close();
  });

  async function open(
    path: string,
    options: Parameters<Browser['newContext']>[0] = {},
  ): Promise<{ context: BrowserContext; page: Page }> {
    const context = await browser.newContext({
      colorScheme: 'light',
      viewport: { width: 1280, height: 800 },
      ...options,
    });
    await context.addCookies([{ name: 'warden_session', value: owner.token, url: warden.url }]);
    const page = await context.newPage();
    await page.goto(`${warden.url}${path}`);
    return { context, page };
  }

  const api = (method: string, path: string, body?: unknown) =>
    fetch(`${warden.url}${path}`, {
      method,
      headers: { authorization: `Bearer ${warden.writeKey}`, 'content-type': 'application/json' },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
  const heartbeat = async (key: string, name: string, pushToken?: string) => {
    const res = await api('POST', '/api/v1/monitors', {
      key,
      name,
      type: 'heartbeat',
      runOn: 'push',
      config: { graceSec: 600 },
    });
    expect(res.status).toBe(201);
    const created = (await res.json()) as { id: string; pushToken: string };
    if (pushToken === undefined) return created.id;
    const push = await fetch(`${warden.url}/api/push/${created.pushToken}`, {
      method: 'POST',
      body: '{"status":"up"}',
    });
    expect(push.status).toBe(200);
    return created.id;
  };

  it('points the empty list at “New monitor”, with warden.yaml and the API as the other ways', {
    timeout: scaled(30_000),
  }, async () => {
    const { context, page } = await open('/app/monitors');
    try {
      await page.getByText('No monitors yet').waitFor();
      expect(
        await page.getByText(/^Add one with “New monitor” above, or describe them in warden\.yaml/).isVisible(),
      ).toBe(true);
      expect(await page.getByRole('link', { name: 'New monitor' }).isVisible()).toBe(true);
    } finally {
      await context.close();
    }
  });

  it('says since when a paused monitor is paused, not since its last state', { timeout: scaled(30_000) }, async () => {
    const id = await heartbeat('lobby', 'Lobby', LOBBY);
    await new Promise((resolve) => setTimeout(resolve, 1500));
    const paused = await (await api('PATCH', `/api/v1/monitors/${id}`, { enabled: false })).json();
    expect(paused.pausedAt).toBeGreaterThan(paused.stateSince + 1000);
    const { context, page } = await open(`/app/monitors/${id}`);
    try {
      const when = (ms: number) =>
        page.evaluate(
          (at) => new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'medium' }).format(new Date(at)),
          ms,
        );
      await page.getByText(/^since /).waitFor();
      expect(await page.getByText(/^since /).textContent()).toBe(`since ${await when(paused.pausedAt)}`);
      expect(await page.locator('dd').filter({ hasText: /since/ }).textContent()).toMatch(/^Paused/);
    } finally {
      await context.close();
    }
  });

  it('draws the unknown dot in dark mode as plainly as the others', { timeout: scaled(30_000) }, async () => {
    await heartbeat('website', 'Website');
    const { context, page } = await open('/app/monitors', { colorScheme: 'dark' });
    try {
      const row = page.getByRole('table', { name: 'Monitors' }).getByRole('row', { name: /Website/ });
      await expect.poll(() => row.textContent()).toContain('Unknown');
      const ratio = await row
        .locator('circle')
        .first()
        .evaluate((circle) => {
          const rgb = (color: string) => (color.match(/\d+(\.\d+)?/g) ?? []).slice(0, 3).map(Number);
          const luminance = (color: string) => {
            const [r, g, b] = rgb(color).map((v) =>
              v / 255 <= 0.03928 ? v / 255 / 12.92 : ((v / 255 + 0.055) / 1.055) ** 2.4,
            );
            return 0.2126 * (r ?? 0) + 0.7152 * (g ?? 0) + 0.0722 * (b ?? 0);
          };
          const dot = luminance(getComputedStyle(circle).fill);
          const page = luminance(getComputedStyle(document.body).backgroundColor);
          return (Math.max(dot, page) + 0.05) / (Math.min(dot, page) + 0.05);
        });
      // WCAG's 3:1 for graphics that carry meaning.
      expect(ratio).toBeGreaterThanOrEqual(3);
    } finally {
      await context.close();
    }
  });

  it('keeps state, name, the beats and the uptime on a phone', { timeout: scaled(30_000) }, async () => {
    await heartbeat('survival', 'Survival', SURVIVAL);
    const { context, page } = await open('/app/monitors', { viewport: { width: 390, height: 844 } });
    try {
      const row = page.getByRole('table', { name: 'Monitors' }).getByRole('row', { name: /Survival/ });
      await expect.poll(() => row.textContent(), { timeout: 10_000 }).toContain('100 % up in 24 h');
      expect(await row.getByText('Up', { exact: true }).isVisible()).toBe(true);
      expect(await row.getByRole('img', { name: /^Survival, the only check: 1 up, 0 down/ }).isVisible()).toBe(true);
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    } finally {
      await context.close();
    }
  });

  it('offers the operator’s owner to remove the demo, after a confirmation', { timeout: scaled(30_000) }, async () => {
    const { context, page } = await open('/app/settings/organization');
    try {
      const section = page.getByRole('region', { name: 'The built-in demo' });
      await section.waitFor();
      await section.getByRole('button', { name: 'Remove the demo…' }).click();
      const dialog = page.getByRole('dialog', { name: 'Remove the demo?' });
      await dialog.getByRole('button', { name: 'Remove the demo' }).click();
      await expect.poll(() => section.count()).toBe(0);
      expect(await warden.opened.store.organizations.findByKey('demo')).toBeUndefined();
    } finally {
      await context.close();
    }
  });
});
