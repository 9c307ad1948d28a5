// The dashboard's ways in, in real Chromium against a real Warden started with no account: /app opening the setup
// screen by itself, filled in with the code `warden setup-code` (the real CLI, on the same database) prints (landing
// signed in on /app with the new organization), signing out and in again
// through the forms, and signing in with OpenID Connect at a real provider (test/fakes/oidc-provider.ts).
import { createServer } from 'node:net';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readSettings } from '../../src/config/settings.js';
import { createLogger } from '../../src/logger.js';
import { startWarden, type Warden } from '../../src/main.js';
import { seriousViolations } from '../axe.js';
import { launchChromium } from '../browser.js';
import { runCli } from '../cli-process.js';
import { type FakeOidcProvider, startOidcProvider } from '../fakes/oidc-provider.js';
import { dialects, type OpenedStore } from '../store-dialects.js';
import { scaled } from '../time-scale.js';

const SETUP_CODE = /the setup code ([2-9A-Z]{4}-[2-9A-Z]{4})/;
const OWNER = { name: 'Olive Owner', email: 'olive@example.com', password: 'correct horse battery staple' };

/** A port free right now: the provider must know Warden's callback address before Warden starts. */
async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

describe('signing in to the dashboard', () => {
  let opened: OpenedStore;
  let warden: Warden;
  let provider: FakeOidcProvider;
  let browser: Browser;
  let base: string;
  let context: BrowserContext;
  let page: Page;
  const log: string[] = [];

  beforeAll(async () => {
    const sqlite = dialects.find((d) => d.name === 'sqlite')!;
    opened = await sqlite.open();
    const port = await freePort();
    base = `http://127.0.0.1:${port}`;
    provider = await startOidcProvider({ redirectUris: [`${base}/api/v1/auth/oidc/callback`] });
    const settings = readSettings({
      ...opened.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      LOG_LEVEL: 'info',
      WARDEN_BASE_URL: base,
      // The code typed by hand, as on a server elsewhere: the code filled in on the server's own machine is the
      // newcomer's test (newcomer.test.ts).
      WARDEN_LOCAL_SETUP: '0',
      WARDEN_OIDC_ISSUER: provider.issuer,
      WARDEN_OIDC_CLIENT_ID: provider.clientId,
      WARDEN_OIDC_CLIENT_SECRET: provider.clientSecret,
      WARDEN_OIDC_NAME: 'Test IdP',
    });
    warden = await startWarden({
      settings,
      logger: createLogger('info', { write: (line: string) => void log.push(line) }),
    });
    browser = await launchChromium();
    // One browser session through the three flows: the owner set up first is the one who signs in after.
    context = await browser.newContext({ colorScheme: 'light', viewport: { width: 1280, height: 800 } });
    page = await context.newPage();
  });
  afterAll(async () => {
    await context?.close();
    await browser?.close();
    await warden?.close();
    await provider?.close();
    await opened?.cleanup();
  });

  async function signOut(page: Page): Promise<void> {
    await page.getByRole('button', { name: `Account menu of ${OWNER.name}` }).click();
    await page.getByRole('menuitem', { name: 'Sign out' }).click();
    await page.waitForURL(/\/app\/login/);
  }

  it('opens the setup screen at /app, takes the code of `warden setup-code`, creates the owner and lands signed in on /app', {
    timeout: scaled(40_000),
  }, async () => {
    // First run: the start-up log names a code, and /app leads to the setup screen by itself.
    const logged = SETUP_CODE.exec(log.join(''))?.[1];
    expect(logged).toBeDefined();
    await page.goto(`${base}/app`);
    await page.getByRole('heading', { name: 'Set up Warden' }).waitFor();
    expect(page.url()).toBe(`${base}/app/setup`);
    expect(await seriousViolations(page)).toEqual([]);
    // The operator asks the command line for a code instead: the logged one stops working.
    const cli = await runCli(['setup-code'], { ...opened.env, PORT: '1' });
    expect(cli.code).toBe(0);
    const code = cli.stdout.trim();
    expect(code).toMatch(/^[2-9A-Z]{4}-[2-9A-Z]{4}$/);
    // The link it names is the running server's address, recorded at start (not PORT=1).
    expect(cli.stderr).toContain(`enter this code at ${base}/app`);
    await page.getByLabel('Setup code').fill(logged as string);
    await page.getByLabel('Your name').fill(OWNER.name);
    await page.getByLabel('Email').fill(OWNER.email);
    await page.getByLabel(/^Password/).fill(OWNER.password);
    await page.getByRole('button', { name: 'Create the owner account' }).click();
    await page.getByText('is not the current setup code').waitFor();
    await page.getByLabel('Setup code').fill(code.toLowerCase());
    await page.getByLabel('Organization name').fill('Acme Games');
    await page.getByRole('button', { name: 'Create the owner account' }).click();
    await page.waitForURL(/\/app\/monitors$/);
    await page.getByRole('heading', { name: 'Monitors', level: 1 }).waitFor();
    expect(await page.getByRole('banner').textContent()).toContain('Acme Games');
    // The session, and the known-device cookie (docs/accounts.md).
    expect((await context.cookies()).map((c) => c.name)).toEqual(['warden_session', 'warden_device']);
    expect(await (await fetch(`${base}/api/v1/auth/config`)).json()).toMatchObject({ setupRequired: false });
    // Set up: /app no longer offers the setup, and the command says why it makes no code.
    const after = await runCli(['setup-code'], opened.env);
    expect([after.code, after.stdout, after.stderr]).toEqual([
      1,
      '',
      expect.stringContaining('An account exists already'),
    ]);
  });

  it('signs out from the user menu and in again with email and password', async () => {
    await signOut(page);
    expect((await context.cookies()).map((c) => c.name)).toEqual(['warden_device']);
    await page.goto(`${base}/app/monitors`);
    await page.waitForURL(/\/app\/login\?next=/);
    await page.getByLabel('Email').fill(OWNER.email);
    await page.getByLabel(/^Password/).fill(OWNER.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL(/\/app\/monitors$/);
    expect(await page.getByRole('banner').textContent()).toContain('Acme Games');
    expect((await context.cookies()).map((c) => c.name).sort()).toEqual(['warden_device', 'warden_session']);
  });

  it('signs in with OpenID Connect at the provider and comes back to /app signed in', async () => {
    await signOut(page);
    provider.people.set('olive-sub', { email: OWNER.email, email_verified: true, name: OWNER.name });
    await page.getByRole('link', { name: 'Sign in with Test IdP' }).click();
    await page.waitForURL((url) => url.origin === provider.issuer);
    await page.locator('input[name="login"]').fill('olive-sub');
    await page.locator('input[name="password"]').fill('any');
    await page.locator('button[type="submit"]').click();
    // The provider asks for consent once, then sends the browser back to Warden's callback.
    await page.waitForURL((url) => url.origin === base || url.pathname.includes('/interaction/'));
    if (new URL(page.url()).origin !== base) await page.locator('button[type="submit"]').click();
    await page.waitForURL(/\/app\/monitors$/);
    await page.getByRole('button', { name: `Account menu of ${OWNER.name}` }).waitFor();
    expect(await page.getByRole('banner').textContent()).toContain('Acme Games');
    expect(
      (await context.cookies()).filter((c) => c.domain === '127.0.0.1' && c.name === 'warden_session'),
    ).toHaveLength(1);
  });
});
