// The page editor's "Discord boards" section in real Chromium against a real Warden: a board added with a component
// picked, listed with its redacted webhook and its message's state; changed without retyping the webhook; deleted;
// warden.yaml's board read-only; no serious accessibility violation.
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type SignedInUser, signedInUser } from '../accounts.js';
import { launchChromium } from '../browser.js';
import { type SeededWarden, startSeededWarden } from '../seeded-warden.js';
import { dialects } from '../store-dialects.js';
import { seriousViolations } from './dashboard-harness.js';

// Nothing listens there: the keeper's attempts fail, which the list then shows; no request leaves the machine.
const WEBHOOK = 'http://127.0.0.1:9/api/webhooks/123456789/games-token-abcdef';
const YAML = `
organization: { key: acme, name: Acme }
monitors:
  - { key: lobby, name: Lobby, type: heartbeat, config: { graceSec: 600 } }
pages:
  - slug: main
    title: Acme status
    components:
      - { key: hub, name: Hub, monitor: lobby }
      - { key: forum, name: Forum }
    boards:
      - { key: announce, webhookUrl: "http://127.0.0.1:9/api/webhooks/42/announce-token-abcdef" }
`;

const seeding = () => import('../seed.js');

describe('the dashboard’s Discord boards', () => {
  let warden: SeededWarden;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let editor: SignedInUser;

  beforeAll(async () => {
    warden = await startSeededWarden(dialects.find((d) => d.name === 'sqlite')!, YAML);
    const { testContext } = await seeding();
    editor = await signedInUser(
      { ...testContext(warden.opened.store, { now: () => Date.now() }), organizationId: warden.organizationId },
      [{ organizationId: warden.organizationId, role: 'editor' }],
    );
    browser = await launchChromium();
    context = await browser.newContext({ colorScheme: 'light', viewport: { width: 1280, height: 900 } });
    await context.addCookies([{ name: 'warden_session', value: editor.token, url: warden.url }]);
    page = await context.newPage();
    page.setDefaultTimeout(10_000);
  });
  afterAll(async () => {
    await context?.close();
    await browser?.close();
    await warden?.close();
  });

  const section = () => page.getByRole('region', { name: 'Discord boards' });
  const stored = async (key: string) => {
    const main = await warden.opened.store.pages.findBySlug('main');
    return warden.opened.store.boards.findByKey(main!.id, key);
  };

  it('adds a board from the page screen and lists it with its message state, warden.yaml’s read-only', async () => {
    await page.goto(`${warden.url}/app/pages/main`);
    const announce = section().getByRole('listitem', { name: 'Board announce' });
    await announce.waitFor();
    expect(await announce.textContent()).toContain('warden.yaml');
    expect(await announce.textContent()).toContain('http://127.0.0.1:9/api/webhooks/42/…');
    expect(await announce.getByRole('button').count()).toBe(0);

    await section().getByRole('button', { name: 'Add a Discord board' }).click();
    const form = section().getByRole('form', { name: 'Add a Discord board' });
    await form.getByLabel('Key').fill('games');
    await form.getByLabel('Webhook URL').fill(WEBHOOK);
    await form.getByRole('combobox', { name: 'Components shown' }).click();
    await page.getByRole('option', { name: 'Hub' }).click();
    await page.keyboard.press('Escape');
    expect(await seriousViolations(page)).toEqual([]);
    await form.getByRole('button', { name: 'Add board' }).click();

    const games = section().getByRole('listitem', { name: 'Board games' });
    await games.waitFor();
    await form.waitFor({ state: 'detached' });
    const text = await games.textContent();
    // The token is never shown again; the state is in words.
    expect(text).toContain('http://127.0.0.1:9/api/webhooks/123456789/…');
    expect(text).not.toContain('games-token');
    expect(text).toContain('shows hub');
    expect(text).toMatch(/Posting|Retrying|Not posted|Stopped/);
    expect(await stored('games')).toMatchObject({ webhookUrl: WEBHOOK, enabled: true, managedBy: 'api' });
    expect(await seriousViolations(page)).toEqual([]);
  }, 30_000);

  it('changes a board without retyping its webhook, then deletes it', async () => {
    await page.goto(`${warden.url}/app/pages/main`);
    const games = section().getByRole('listitem', { name: 'Board games' });
    await games.getByRole('button', { name: 'Edit board games' }).click();
    const dialog = page.getByRole('dialog', { name: 'Edit board games' });
    expect(await dialog.textContent()).toContain(
      'Currently http://127.0.0.1:9/api/webhooks/123456789/… (token hidden)',
    );
    await dialog.getByRole('switch', { name: /Enabled/ }).uncheck();
    expect(await seriousViolations(page)).toEqual([]);
    await dialog.getByRole('button', { name: 'Save board' }).click();
    await dialog.waitFor({ state: 'detached' });
    await games.getByText('Disabled').waitFor();
    expect(await stored('games')).toMatchObject({ webhookUrl: WEBHOOK, enabled: false });

    await games.getByRole('button', { name: 'Delete board games' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Delete board' }).click();
    await games.waitFor({ state: 'detached' });
    expect(await stored('games')).toBeUndefined();
    await section().getByRole('listitem', { name: 'Board announce' }).waitFor();
  }, 30_000);
});
