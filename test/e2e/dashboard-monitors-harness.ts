// What the dashboard's monitor-screen tests share (dashboard-monitors-edge-types.test.ts,
// dashboard-monitors-push.test.ts): a real Warden serving dist/web with warden.yaml's heartbeat monitor, private
// targets allowed (the fakes listen on 127.0.0.1), its owner signed in, and Chromium.
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll } from 'vitest';
import { type SignedInUser, signedInUser } from '../accounts.js';
import { launchChromium } from '../browser.js';
import { type SeededWarden, startSeededWarden } from '../seeded-warden.js';
import { dialects } from '../store-dialects.js';
import { scaled } from '../time-scale.js';

const YAML = `
organization: { key: acme, name: Acme }
monitors:
  - { key: backups, name: Nightly backups, type: heartbeat, config: { graceSec: 600 } }
`;

const seeding = () => import('../seed.js');

export /** An input by its label, required (" *") or not. */
const field = (page: Page, label: string) =>
  page.getByLabel(new RegExp(`^${label.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}( \\*)?$`));

/** Called inside a describe: the server (with `yaml`, else the heartbeat monitor), its owner and the browser. */
export function monitorScreens(yaml: string = YAML) {
  let warden: SeededWarden;
  let browser: Browser;
  let owner: SignedInUser;

  beforeAll(async () => {
    const sqlite = dialects.find((d) => d.name === 'sqlite')!;
    // One organization, and said outright: the fakes listen on 127.0.0.1.
    warden = await startSeededWarden(sqlite, yaml, { WARDEN_PROBE_PRIVATE_TARGETS: 'allow' });
    const { testContext } = await seeding();
    owner = await signedInUser(
      { ...testContext(warden.opened.store, { now: () => Date.now() }), organizationId: warden.organizationId },
      [{ organizationId: warden.organizationId, role: 'owner' }],
    );
    browser = await launchChromium();
  }, scaled(30_000));
  afterAll(async () => {
    await browser?.close();
    await warden?.close();
  });

  async function open(path: string): Promise<{ context: BrowserContext; page: Page }> {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    await context.addCookies([{ name: 'warden_session', value: owner.token, url: warden.url }]);
    const page = await context.newPage();
    // A step that cannot happen fails with its locator named, well before the test's own timeout.
    page.setDefaultTimeout(scaled(10_000));
    // Loading the dashboard is a navigation: on a loaded two-core machine it can take longer than a step.
    page.setDefaultNavigationTimeout(scaled(30_000));
    await page.goto(`${warden.url}/app${path}`);
    return { context, page };
  }

  return {
    get warden() {
      return warden;
    },
    open,
  };
}
