// The page editor's "Subscribers" section in real Chromium against a real Warden: each subscriber's kind and state, a
// Slack webhook's token hidden, Approve for one awaiting approval (then confirmed in the store), hidden from an editor;
// no serious accessibility violation.
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PageSubscriber } from '../../src/domain/subscriber.js';
import { signedInUser } from '../accounts.js';
import { launchChromium } from '../browser.js';
import { type SeededWarden, startSeededWarden } from '../seeded-warden.js';
import { dialects } from '../store-dialects.js';
import { scaled } from '../time-scale.js';
import { seriousViolations } from './dashboard-harness.js';

const YAML = `
organization: { key: acme, name: Acme }
pages:
  - { slug: main, title: Acme status, subscriptions: true }
`;

const seeding = () => import('../seed.js');

describe('the dashboard’s page subscribers', () => {
  let warden: SeededWarden;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;

  const signIn = async (role: 'admin' | 'editor') => {
    const { testContext } = await seeding();
    const user = await signedInUser(
      { ...testContext(warden.opened.store, { now: () => Date.now() }), organizationId: warden.organizationId },
      [{ organizationId: warden.organizationId, role }],
    );
    await context.clearCookies();
    await context.addCookies([{ name: 'warden_session', value: user.token, url: warden.url }]);
  };

  beforeAll(async () => {
    warden = await startSeededWarden(dialects.find((d) => d.name === 'sqlite')!, YAML);
    const main = await warden.opened.store.pages.findBySlug('main');
    const now = Date.now();
    const base = { organizationId: warden.organizationId, pageId: main!.id, secret: null, confirmTokenHash: null };
    const add = (s: Partial<PageSubscriber> & Pick<PageSubscriber, 'id' | 'kind' | 'format' | 'address'>) =>
      warden.opened.store.subscribers.insert({
        ...base,
        unsubscribeToken: `${s.id}.unsubscribe`,
        confirmedAt: now,
        expiresAt: null,
        requestedBy: null,
        createdAt: now,
        ...s,
      });
    await add({ id: 'sub_000000000000000a', kind: 'email', format: 'warden', address: 'fan@example.test' });
    await add({
      id: 'sub_000000000000000b',
      kind: 'webhook',
      format: 'slack',
      address: 'https://hooks.slack.com/services/T0001/B0001/slack-secret-part',
      confirmedAt: null,
      requestedBy: '192.0.2.9',
    });
    browser = await launchChromium();
    context = await browser.newContext({ colorScheme: 'light', viewport: { width: 1280, height: 900 } });
    page = await context.newPage();
    page.setDefaultTimeout(scaled(10_000));
  });
  afterAll(async () => {
    await context?.close();
    await browser?.close();
    await warden?.close();
  });

  const section = () => page.getByRole('region', { name: 'Subscribers' });

  it('lists each subscriber with its kind, and approves a Slack webhook awaiting approval', {
    timeout: scaled(30_000),
  }, async () => {
    await signIn('admin');
    await page.goto(`${warden.url}/app/pages/main`);
    const email = section().getByRole('listitem', { name: 'Email subscriber fan@example.test' });
    await email.waitFor();
    expect(await email.textContent()).toContain('Confirmed');
    const slack = section().getByRole('listitem', { name: /^Slack subscriber / });
    const text = await slack.textContent();
    expect(text).toContain('https://hooks.slack.com/services/T0001/B0001/…');
    expect(text).not.toContain('slack-secret-part');
    expect(text).toContain('Awaiting approval');
    expect(await seriousViolations(page)).toEqual([]);

    await slack.getByRole('button', { name: /^Approve Slack subscriber/ }).click();
    await slack.getByText('Confirmed').waitFor();
    expect(await slack.getByRole('button', { name: /^Approve/ }).count()).toBe(0);
    expect((await warden.opened.store.subscribers.findById('sub_000000000000000b'))?.confirmedAt).not.toBeNull();
  });

  it('shows an editor no subscribers (people’s addresses are for admins)', { timeout: scaled(30_000) }, async () => {
    await signIn('editor');
    await page.goto(`${warden.url}/app/pages/main`);
    await page.getByRole('region', { name: 'Components' }).waitFor();
    expect(await section().count()).toBe(0);
  });
});
