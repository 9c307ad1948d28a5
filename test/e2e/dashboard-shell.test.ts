// The dashboard in real Chromium against a real Warden serving dist/web (built by `npm test`'s `npm run build`): the
// monitor list of a signed-in user with filters in the URL, dark mode remembered, switching and deleting an
// organization (every screen then reads the organization in use, nothing of the other), signing in
// (with a second factor) and out, the headers of index.html and of a hashed asset, no CSP violation and no serious
// accessibility violation.
import { AxeBuilder } from '@axe-core/playwright';
import { Secret, TOTP } from 'otpauth';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Role } from '../../src/domain/account.js';
import { type SignedInUser, signedInUser } from '../accounts.js';
import { launchChromium } from '../browser.js';
import { type SeededWarden, startSeededWarden } from '../seeded-warden.js';
import { dialects } from '../store-dialects.js';

const LOBBY = 'wdp_dashboardLobbyHeartbeat012345';
const BACKUPS = 'wdp_dashboardBackupHeartbeat01234';
const YAML = `
organization: { key: acme, name: Acme }
monitors:
  - { key: lobby, name: Lobby, type: heartbeat, pushToken: ${LOBBY}, config: { graceSec: 600 } }
  - { key: backups, name: Nightly backups, type: heartbeat, pushToken: ${BACKUPS}, config: { graceSec: 600 } }
  - { key: website, name: Website, type: heartbeat, config: { graceSec: 600 } }
pages:
  - { slug: main, title: Acme status }
`;
const OTHER_YAML = `
organization: { key: borealis, name: Borealis }
monitors:
  - { key: aurora, name: Aurora, type: heartbeat, config: { graceSec: 600 } }
pages:
  - { slug: north, title: Borealis status }
`;

// seed.js is imported once the server's modules are loaded: loaded first, it evaluates the monitor schemas before
// @hono/zod-openapi extends zod, and the API routes then fail to load (`….openapi is not a function`).
const seeding = () => import('../seed.js');

describe('the dashboard', () => {
  let warden: SeededWarden;
  let browser: Browser;
  let owner: SignedInUser;
  beforeAll(async () => {
    const sqlite = dialects.find((d) => d.name === 'sqlite')!;
    warden = await startSeededWarden(sqlite, YAML);
    owner = await user([{ organizationId: warden.organizationId, role: 'owner' }], { name: 'Olive Owner' });
    const push = (token: string, body: object) =>
      fetch(`${warden.url}/api/push/${token}`, { method: 'POST', body: JSON.stringify(body) }).then((r) =>
        expect(r.status).toBe(200),
      );
    await push(LOBBY, { status: 'up', latency: 42, players: 12, maxPlayers: 64 });
    await push(BACKUPS, { status: 'down', msg: 'disk full' });
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
    await warden?.close();
  });

  /** A real user with a live session (test/accounts.ts), at the real time so the session has not expired. */
  async function user(
    memberships: { organizationId: string; role: Role }[],
    options: { name?: string } = {},
  ): Promise<SignedInUser> {
    const { testContext } = await seeding();
    return signedInUser(
      { ...testContext(warden.opened.store, { now: () => Date.now() }), organizationId: warden.organizationId },
      memberships,
      options,
    );
  }

  /** A browser context, signed in as the owner unless told otherwise, whose CSP violations are collected. */
  async function open(
    path: string,
    { signedIn = true } = {},
  ): Promise<{ context: BrowserContext; page: Page; cspErrors: string[] }> {
    const context = await browser.newContext({ colorScheme: 'light', viewport: { width: 1280, height: 800 } });
    if (signedIn) await context.addCookies([{ name: 'warden_session', value: owner.token, url: warden.url }]);
    const page = await context.newPage();
    const cspErrors: string[] = [];
    page.on('console', (message) => {
      if (/Content Security Policy/i.test(message.text())) cspErrors.push(message.text());
    });
    await page.goto(`${warden.url}${path}`);
    return { context, page, cspErrors };
  }

  async function seriousViolations(page: Page): Promise<string[]> {
    const { violations } = await new AxeBuilder({ page })
      .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'])
      .analyze();
    return violations
      .filter((v) => v.impact === 'serious' || v.impact === 'critical')
      .map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
  }

  it('shows the monitors with their states and latency, filters through the URL, and remembers dark mode', async () => {
    const { context, page, cspErrors } = await open('/app');
    try {
      await page.waitForURL(/\/app\/monitors$/);
      const table = page.getByRole('table', { name: 'Monitors' });
      const lobby = table.getByRole('row', { name: /Lobby/ });
      await expect.poll(() => lobby.textContent()).toContain('Up');
      expect(await lobby.textContent()).toContain('42 ms');
      expect(await lobby.textContent()).toContain('12 / 64');
      expect(await table.getByRole('row', { name: /Nightly backups/ }).textContent()).toContain('Down');
      expect(await table.getByRole('row', { name: /Website/ }).textContent()).toContain('Unknown');
      expect(await page.getByRole('status').filter({ hasText: 'monitors' }).textContent()).toBe('3 monitors');
      expect(await page.getByRole('button', { name: 'Account menu of Olive Owner' }).isVisible()).toBe(true);
      expect(
        await page
          .getByRole('navigation', { name: 'Dashboard' })
          .getByRole('link', { name: 'Monitors' })
          .getAttribute('aria-current'),
      ).toBe('page');
      await lobby.getByRole('img', { name: 'Latency of Lobby over the last 24 hours' }).waitFor();
      expect(await seriousViolations(page)).toEqual([]);

      await page.getByRole('searchbox', { name: 'Search' }).fill('backup');
      await page.waitForURL(/\/app\/monitors\?q=backup$/);
      await expect.poll(() => table.getByRole('row').count()).toBe(2);
      expect(await table.getByRole('row', { name: /Nightly backups/ }).isVisible()).toBe(true);
      // The filter lives in the URL: a reload keeps it.
      await page.reload();
      await expect.poll(() => page.getByRole('searchbox', { name: 'Search' }).inputValue()).toBe('backup');
      await expect.poll(() => table.getByRole('row').count()).toBe(2);

      await page.goto(`${warden.url}/app/monitors?state=down`);
      await expect.poll(() => table.getByRole('row').count()).toBe(2);
      expect(await table.getByRole('row', { name: /Nightly backups/ }).isVisible()).toBe(true);

      const html = page.locator('html');
      expect(await html.getAttribute('data-mantine-color-scheme')).toBe('light');
      await page.getByRole('button', { name: 'Switch to dark mode' }).click();
      await expect.poll(() => html.getAttribute('data-mantine-color-scheme')).toBe('dark');
      await page.reload();
      await page.getByRole('button', { name: 'Switch to light mode' }).waitFor();
      expect(await html.getAttribute('data-mantine-color-scheme')).toBe('dark');
      expect(await page.evaluate(() => Object.keys(localStorage))).not.toContain(
        expect.stringMatching(/session|token/i),
      );

      expect(await seriousViolations(page)).toEqual([]);
      expect(cspErrors).toEqual([]);
    } finally {
      await context.close();
    }
  }, 30_000);

  it('switches organization: every screen reads the other one’s, back and forth, and the choice is remembered', async () => {
    const { report } = await (await seeding()).seed(warden.opened.store, OTHER_YAML, Date.now());
    const both = await user([
      { organizationId: warden.organizationId, role: 'viewer' },
      { organizationId: report.organization.id, role: 'admin' },
    ]);
    const context = await browser.newContext();
    try {
      await context.addCookies([{ name: 'warden_session', value: both.token, url: warden.url }]);
      const page = await context.newPage();
      const switchTo = async (name: string) => {
        await page.getByRole('combobox', { name: 'Organization' }).click();
        await page.getByRole('option', { name }).click();
      };
      const openPages = async (title: string) => {
        await page.getByRole('navigation', { name: 'Dashboard' }).getByRole('link', { name: 'Pages' }).click();
        await page.getByRole('link', { name: title }).waitFor();
      };
      await page.goto(`${warden.url}/app/monitors`);
      const table = page.getByRole('table', { name: 'Monitors' });
      await table.getByRole('row', { name: /Lobby/ }).waitFor();
      await openPages('Acme status');
      await switchTo('Borealis');
      await table.getByRole('row', { name: /Aurora/ }).waitFor();
      expect(await table.getByRole('row').count()).toBe(2);
      // Acme's pages were read a moment ago: Borealis's are shown, never those.
      await openPages('Borealis status');
      expect(await page.getByRole('link', { name: 'Acme status' }).count()).toBe(0);
      await switchTo('Acme');
      await table.getByRole('row', { name: /Lobby/ }).waitFor();
      expect(await table.getByRole('row', { name: /Aurora/ }).count()).toBe(0);
      await openPages('Acme status');
      expect(await page.getByRole('link', { name: 'Borealis status' }).count()).toBe(0);
      await switchTo('Borealis');
      await table.getByRole('row', { name: /Aurora/ }).waitFor();
      await page.reload();
      await table.getByRole('row', { name: /Aurora/ }).waitFor();
      expect(await page.getByRole('combobox', { name: 'Organization' }).inputValue()).toBe('Borealis');
    } finally {
      await context.close();
    }
  }, 30_000);

  it('deletes an organization: the user lands in the one left, whose monitors are shown, and nothing of the deleted one', async () => {
    const both = await user([{ organizationId: warden.organizationId, role: 'owner' }], { name: 'Dora Deleter' });
    // Made through the API (warden.yaml's organizations cannot be deleted from the dashboard); an owner may, and owns it.
    const created = await fetch(`${warden.url}/api/v1/organizations`, {
      method: 'POST',
      headers: { cookie: both.cookie, origin: warden.url, 'content-type': 'application/json' },
      body: JSON.stringify({ key: 'doomed', name: 'Doomed' }),
    });
    expect(created.status).toBe(201);
    const context = await browser.newContext();
    try {
      await context.addCookies([{ name: 'warden_session', value: both.token, url: warden.url }]);
      const page = await context.newPage();
      await page.goto(`${warden.url}/app/monitors`);
      const table = page.getByRole('table', { name: 'Monitors' });
      await table.getByRole('row', { name: /Lobby/ }).waitFor();
      await page.getByRole('combobox', { name: 'Organization' }).click();
      await page.getByRole('option', { name: 'Doomed' }).click();
      await page.getByText('No monitors yet').waitFor();
      await page.getByRole('navigation', { name: 'Dashboard' }).getByRole('link', { name: 'Organization' }).click();
      await page.getByRole('button', { name: 'Delete Doomed…' }).click();
      await page.getByRole('textbox', { name: /Type the key/ }).fill('doomed');
      await page.getByRole('button', { name: 'Delete for good' }).click();
      await page.waitForURL(/\/app\/monitors$/);
      // From here on, nothing asks for the deleted organization again.
      const forDeleted: string[] = [];
      page.on('request', (request) => {
        if (request.headers()['x-warden-organization'] === 'doomed' || request.url().includes('organization=doomed'))
          forDeleted.push(request.url());
      });
      await table.getByRole('row', { name: /Lobby/ }).waitFor();
      // One organization left: named in the header, no switcher.
      expect(await page.getByRole('combobox', { name: 'Organization' }).count()).toBe(0);
      await page.getByRole('navigation', { name: 'Dashboard' }).getByRole('link', { name: 'Organization' }).click();
      await page.getByText('Key acme').waitFor();
      await page.getByRole('navigation', { name: 'Dashboard' }).getByRole('link', { name: 'Pages' }).click();
      await page.getByRole('link', { name: 'Acme status' }).waitFor();
      expect(forDeleted).toEqual([]);
    } finally {
      await context.close();
    }
  }, 30_000);

  it('sends a visitor without a session to sign in, and comes back to where they were going', async () => {
    const { context, page, cspErrors } = await open('/app/monitors?state=down', { signedIn: false });
    try {
      await page.waitForURL(/\/app\/login\?next=/);
      expect(new URL(page.url()).searchParams.get('next')).toBe('/monitors?state=down');
      await page.getByRole('heading', { name: 'Sign in' }).waitFor();
      expect(await page.getByLabel('Email').isVisible()).toBe(true);
      expect(await seriousViolations(page)).toEqual([]);
      expect(cspErrors).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it('signs in with email, password and the authenticator’s code, announcing a wrong password, and signs out', async () => {
    const editor = await user([{ organizationId: warden.organizationId, role: 'editor' }]);
    const secret = new Secret({ size: 20 }).base32;
    await warden.opened.store.users.setTotp(editor.userId, { secret, enabledAt: Date.now() }, Date.now());
    const { context, page, cspErrors } = await open('/app/login?next=%2Fmonitors%3Fq%3Dlobby', { signedIn: false });
    try {
      await page.getByLabel('Email').fill(editor.email);
      await page.getByLabel(/^Password/).fill('not the password');
      await page.getByRole('button', { name: 'Sign in' }).click();
      await page.getByRole('alert').filter({ hasText: 'Could not sign in' }).waitFor();
      expect(await page.getByRole('alert').textContent()).not.toContain('not the password');

      await page.getByLabel(/^Password/).fill(editor.password);
      await page.getByRole('button', { name: 'Sign in' }).click();
      await page.getByLabel(/^Authentication code/).fill(TOTP.generate({ secret: Secret.fromBase32(secret) }));
      await page.getByRole('button', { name: 'Verify' }).click();
      await page.waitForURL(/\/app\/monitors\?q=lobby$/);
      await expect.poll(() => page.getByRole('table', { name: 'Monitors' }).getByRole('row').count()).toBe(2);
      // The session, and the known-device cookie that keeps this browser's right password past others' guesses.
      expect((await context.cookies()).map((c) => [c.name, c.httpOnly])).toEqual([
        ['warden_session', true],
        ['warden_device', true],
      ]);

      await page.getByRole('button', { name: /^Account menu of / }).click();
      await page.getByRole('menuitem', { name: 'Sign out' }).click();
      await page.waitForURL(/\/app\/login/);
      // Signed out: the session is gone; the browser stays a known device.
      expect((await context.cookies()).map((c) => c.name)).toEqual(['warden_device']);
      await page.goto(`${warden.url}/app/monitors`);
      await page.waitForURL(/\/app\/login\?next=/);
      expect(cspErrors).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it('serves index.html uncached with a strict CSP, and hashed assets immutable and precompressed', async () => {
    const index = await fetch(`${warden.url}/app/monitors`);
    expect(index.status).toBe(200);
    expect(index.headers.get('cache-control')).toBe('no-cache');
    const csp = index.headers.get('content-security-policy') ?? '';
    expect(csp).toContain("default-src 'self'");
    expect(csp).toContain("script-src 'self';");
    expect(csp).not.toContain('unsafe-inline');
    const html = await index.text();
    const nonce = /<meta property="csp-nonce" nonce="([^"]+)">/.exec(html)?.[1];
    expect(nonce).toMatch(/^[A-Za-z0-9+/=]{24}$/);
    expect(csp).toContain(`'nonce-${nonce}'`);
    expect(html).not.toMatch(/<script(?![^>]*\bsrc=)[^>]*>/);

    const entry = /<script type="module" crossorigin src="(\/app\/assets\/[^"]+\.js)"/.exec(html)?.[1];
    expect(entry).toBeDefined();
    const brotli = await fetch(`${warden.url}${entry}`, { headers: { 'accept-encoding': 'br, gzip' } });
    expect(brotli.status).toBe(200);
    expect(brotli.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(brotli.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    expect(brotli.headers.get('content-encoding')).toBe('br');
    expect(brotli.headers.get('vary')).toBe('Accept-Encoding');
    expect((await brotli.text()).length).toBeGreaterThan(10_000);

    const missing = await fetch(`${warden.url}/app/assets/index-00000000.js`);
    expect(missing.status).toBe(404);
    expect(missing.headers.get('content-type')).toBe('application/problem+json');
  });
});
