// What the dashboard's browser tests share: the axe check, and (dashboard-shell.test.ts,
// dashboard-organizations.test.ts, dashboard-sign-in.test.ts) a real Warden serving dist/web with three heartbeat
// monitors of Acme, one up and one down, its owner signed in, and Chromium.
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, expect } from 'vitest';
import type { Role } from '../../src/domain/account.js';
import { type SignedInUser, signedInUser } from '../accounts.js';
import { seriousViolations as axeViolations } from '../axe.js';
import { launchChromium } from '../browser.js';
import { type SeededWarden, startSeededWarden } from '../seeded-warden.js';
import { dialects } from '../store-dialects.js';
import { scaled } from '../time-scale.js';

/** Serious and critical WCAG 2.1 AA violations on the page, as `id: targets`. */
export async function seriousViolations(page: Page): Promise<string[]> {
  // Transitions under way end first: a dialog fading out, or a notice fading in, is half transparent, and axe
  // measures its contrast as it is at that moment (a flaky color-contrast of a closing dialog's title). Endless
  // animations (loaders) are not waited for.
  await page.evaluate(() =>
    Promise.all(
      document
        .getAnimations()
        .filter((a) => Number.isFinite(Number(a.effect?.getComputedTiming().endTime ?? Number.POSITIVE_INFINITY)))
        .map((a) => a.finished.catch(() => undefined)),
    ),
  );
  return axeViolations(page);
}

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
// seed.js is imported once the server's modules are loaded: loaded first, it evaluates the monitor schemas before
// @hono/zod-openapi extends zod, and the API routes then fail to load (`….openapi is not a function`).
export const seeding = () => import('../seed.js');

/** Called inside a describe: the server, its owner and the browser, closed after the file. */
export function shellDashboard() {
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

  return {
    get warden() {
      return warden;
    },
    get browser() {
      return browser;
    },
    user,
    open,
  };
}

/**
 * Called inside a describe: a real Warden seeded from `yaml` (SQLite), an editor of its organization signed in, and
 * one light 1280×900 page in Chromium (10 s default timeout); closed after the file.
 */
export function editorDashboard(yaml: string) {
  let warden: SeededWarden;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let editor: SignedInUser;
  beforeAll(async () => {
    warden = await startSeededWarden(dialects.find((d) => d.name === 'sqlite')!, yaml);
    const { testContext } = await seeding();
    editor = await signedInUser(
      { ...testContext(warden.opened.store, { now: () => Date.now() }), organizationId: warden.organizationId },
      [{ organizationId: warden.organizationId, role: 'editor' }],
    );
    browser = await launchChromium();
    context = await browser.newContext({ colorScheme: 'light', viewport: { width: 1280, height: 900 } });
    await context.addCookies([{ name: 'warden_session', value: editor.token, url: warden.url }]);
    page = await context.newPage();
    page.setDefaultTimeout(scaled(10_000));
    // Loading the dashboard is a navigation: on a loaded two-core machine it can take longer than a step.
    page.setDefaultNavigationTimeout(scaled(30_000));
  });
  afterAll(async () => {
    await context?.close();
    await browser?.close();
    await warden?.close();
  });
  return {
    get warden() {
      return warden;
    },
    get page() {
      return page;
    },
    get editor() {
      return editor;
    },
  };
}
