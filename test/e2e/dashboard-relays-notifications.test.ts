// The Relays and Notifications screens in real Chromium against a real Warden: a relay created with its token and
// agent command shown once (the token works, the relay then shows online), a new token, deleting; a webhook channel
// created through the form generated from its JSON Schema (the API's refusal shown under the field, its events picked
// by name, its signing secret generated and shown once), tested against a real receiver (sent, then failed, both in
// the delivery log), changed, then picked by name in a new monitor's Notify; warden.yaml's objects read-only; axe.
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NOTIFICATION_KINDS } from '../../src/notify/channels/channel.js';
import { type SignedInUser, signedInUser } from '../accounts.js';
import { seriousViolations } from '../axe.js';
import { launchChromium } from '../browser.js';
import { type Receiver, startReceiver } from '../fakes/notify-receivers.js';
import { type SeededWarden, startSeededWarden } from '../seeded-warden.js';
import { dialects } from '../store-dialects.js';
import { scaled } from '../time-scale.js';

const YAML = `
organization: { key: acme, name: Acme }
relays:
  - { key: home-lab, name: Home lab }
monitors:
  - { key: survival, name: Survival, type: tcp, runOn: relay, relay: home-lab, config: { host: 10.0.0.5, port: 25565 } }
  - { key: lobby, name: Lobby, type: heartbeat, config: { graceSec: 600 } }
notifications:
  - { key: ops-yaml, name: Ops from the file, type: discord, config: { url: "https://discord.com/api/webhooks/1/abc" } }
`;

// seed.js is imported once the server's modules are loaded (see dashboard-harness.ts).
const seeding = () => import('../seed.js');

describe('the relays and notifications screens', () => {
  let warden: SeededWarden;
  let receiver: Receiver;
  let browser: Browser;
  let owner: SignedInUser;
  let context: BrowserContext;
  let page: Page;
  beforeAll(async () => {
    const sqlite = dialects.find((d) => d.name === 'sqlite')!;
    warden = await startSeededWarden(sqlite, YAML);
    receiver = await startReceiver({ status: 204 });
    const { testContext } = await seeding();
    owner = await signedInUser(
      { ...testContext(warden.opened.store, { now: () => Date.now() }), organizationId: warden.organizationId },
      [{ organizationId: warden.organizationId, role: 'owner' }],
    );
    browser = await launchChromium();
    context = await browser.newContext({ colorScheme: 'light', viewport: { width: 1280, height: 800 } });
    await context.addCookies([{ name: 'warden_session', value: owner.token, url: warden.url }]);
    page = await context.newPage();
    // A step that does not happen fails at its line, well inside the test's time.
    page.setDefaultTimeout(scaled(8000));
    // Loading the dashboard is a navigation: on a loaded two-core machine it can take longer than a step.
    page.setDefaultNavigationTimeout(scaled(30_000));
  });
  afterAll(async () => {
    await context?.close();
    await browser?.close();
    await receiver?.close();
    await warden?.close();
  });

  const relayConfig = (token: string) =>
    fetch(`${warden.url}/api/relay/config`, { headers: { authorization: `Bearer ${token}` } });

  it('lists relays with status, last seen and monitors; creates one whose token and command are shown once; rotates and deletes', {
    timeout: scaled(60_000),
  }, async () => {
    await page.goto(`${warden.url}/app/relays`);
    const table = page.getByRole('table', { name: /relays/ });
    const lab = table.getByRole('row', { name: /Home lab/ });
    await expect.poll(() => lab.textContent()).toContain('Never connected');
    expect(await lab.textContent()).toContain('home-lab');
    expect(await lab.getByLabel(/Managed by warden.yaml/).isVisible()).toBe(true);
    // warden.yaml's relay: no way to change it here.
    expect(await lab.getByRole('button').count()).toBe(0);
    expect(await seriousViolations(page)).toEqual([]);

    await page.getByLabel(/^Name/).fill('Basement rack');
    expect(await page.getByLabel(/^Key/).inputValue()).toBe('basement-rack');
    await page.getByRole('button', { name: 'Create the relay' }).click();
    const token = await page.getByLabel('Relay token', { exact: true }).inputValue();
    expect(token).toMatch(/^wdr_/);
    expect(await page.getByLabel('Run the agent inside your network').inputValue()).toBe(
      `WARDEN_URL=${warden.url} WARDEN_RELAY_TOKEN=${token} warden relay --data-dir /var/lib/warden-relay`,
    );
    expect(
      await page
        .getByText(/shown only once/)
        .first()
        .isVisible(),
    ).toBe(true);
    expect(await seriousViolations(page)).toEqual([]);
    expect(JSON.stringify(await page.evaluate(() => ({ ...localStorage, ...sessionStorage })))).not.toContain(token);

    // The token is the agent's: with it, the relay is heard from, and the list says it is online.
    expect((await relayConfig(token)).status).toBe(200);
    await page.getByRole('button', { name: 'I have saved it' }).click();
    await page.reload();
    const basement = table.getByRole('row', { name: /Basement rack/ });
    await expect.poll(() => basement.textContent()).toContain('Online');
    expect(await basement.textContent()).toMatch(/seconds? ago|now/);

    await basement.getByRole('button', { name: 'New token for Basement rack' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Issue a new token' }).click();
    const rotated = await page.getByLabel('Relay token', { exact: true }).inputValue();
    expect(rotated).toMatch(/^wdr_/);
    expect(rotated).not.toBe(token);
    expect((await relayConfig(token)).status).toBe(401);
    expect((await relayConfig(rotated)).status).toBe(200);
    await page.getByRole('button', { name: 'I have saved it' }).click();

    await basement.getByRole('button', { name: 'Delete Basement rack' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Delete the relay' }).click();
    await expect.poll(() => table.getByRole('row', { name: /Basement rack/ }).count()).toBe(0);
    expect((await relayConfig(rotated)).status).toBe(401);

    // The count links to the monitor list filtered by the relay.
    await lab.getByRole('link', { name: '1 monitor on Home lab' }).click();
    await page.waitForURL(/\/app\/monitors\?relay=home-lab$/);
    await page
      .getByRole('table', { name: 'Monitors' })
      .getByRole('row', { name: /Survival/ })
      .waitFor();
  });

  it('creates a webhook channel from the generated form, shows a refused field inline, sends tests and reads the delivery log', {
    timeout: scaled(90_000),
  }, async () => {
    await page.goto(`${warden.url}/app/notifications`);
    const table = page.getByRole('table', { name: /notification channels/ });
    const fromFile = table.getByRole('row', { name: /Ops from the file/ });
    await fromFile.waitFor();
    expect(await fromFile.getByLabel(/Managed by warden.yaml/).isVisible()).toBe(true);
    expect(await fromFile.getByRole('button', { name: /^Edit/ }).count()).toBe(0);

    await page.getByRole('button', { name: 'New channel' }).click();
    const dialog = page.getByRole('dialog', { name: 'New notification channel' });
    await dialog.getByRole('combobox', { name: /^Type/ }).click();
    await page.getByRole('option', { name: 'Webhook (Standard Webhooks)' }).click();
    await dialog.getByLabel(/^Name/).fill('Ops hook');
    expect(await dialog.getByLabel(/^Key/).inputValue()).toBe('ops-hook');
    await dialog.getByLabel(/^URL/).fill(`${receiver.url}/hook`);
    expect(await dialog.getByText('Leave empty to generate one', { exact: false }).isVisible()).toBe(true);
    await dialog.getByLabel(/^Signing secret/).fill('not-a-secret');
    // Events: all of them, explicitly, until "only the ones ticked" is chosen; each named, with its kind.
    expect(await dialog.getByRole('radio', { name: 'All events' }).isChecked()).toBe(true);
    await dialog.getByRole('radio', { name: 'Only the ones ticked' }).check();
    expect(await dialog.getByText(/None ticked: this channel gets no events/).isVisible()).toBe(true);
    await dialog.getByRole('checkbox', { name: 'Monitor goes down' }).check();
    expect(await dialog.getByRole('checkbox', { name: 'Incident opened' }).isChecked()).toBe(false);
    expect(await seriousViolations(page)).toEqual([]);
    await dialog.getByRole('button', { name: 'Create the channel' }).click();
    // The server's refusal, under the field it names.
    const secretField = dialog.getByLabel(/^Signing secret/);
    await expect.poll(() => secretField.getAttribute('aria-invalid')).toBe('true');
    expect(await dialog.getByText(/expected a Standard Webhooks secret/).isVisible()).toBe(true);
    // Left empty, Warden makes one and shows it once.
    await dialog.getByLabel(/^Signing secret/).fill('');
    await dialog.getByRole('button', { name: 'Create the channel' }).click();
    // Closed once the channel is created and the list read again: on a loaded machine that took over 8 s.
    await dialog.waitFor({ state: 'detached', timeout: scaled(20_000) });
    const shown = page.getByRole('status').filter({ hasText: 'it is shown only once' });
    const secret = await shown.getByLabel('Signing secret').inputValue();
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(await shown.getByRole('button', { name: 'Copy the signing secret' }).isVisible()).toBe(true);
    const hook = table.getByRole('row', { name: /Ops hook/ });
    await expect.poll(() => hook.textContent()).toContain('1 event kind');
    // The modal's overlay fades out after the dialog is gone: axe would judge the panel's contrast through it.
    await page.locator('.mantine-Modal-overlay').waitFor({ state: 'detached' });
    expect(await seriousViolations(page)).toEqual([]);

    await hook.getByRole('button', { name: 'Send a test to Ops hook' }).click();
    await page.getByRole('alert').filter({ hasText: 'Test sent to Ops hook' }).waitFor();
    const request = receiver.requests.at(-1);
    expect(() => new Webhook(secret).verify(request?.raw ?? '', request?.headers as never)).not.toThrow();
    // Dismissed, it is gone for good: not on screen, not in the API's answers.
    await shown.getByRole('button', { name: 'I have saved it' }).click();
    await shown.waitFor({ state: 'detached' });
    expect(await page.content()).not.toContain(secret);
    const log = page.getByRole('table', { name: /deliveries of Ops hook/ });
    await expect.poll(() => log.getByRole('row').count()).toBe(2);
    expect(await log.getByRole('row').nth(1).textContent()).toMatch(/test.*Sent.*HTTP 204/);

    receiver.answer({ status: 410, body: 'gone for good' });
    await hook.getByRole('button', { name: 'Send a test to Ops hook' }).click();
    await page.getByRole('alert').filter({ hasText: 'The test to Ops hook failed' }).waitFor();
    expect(await page.getByRole('alert').filter({ hasText: 'failed' }).textContent()).toContain('HTTP 410');
    await expect.poll(() => log.getByRole('row').count()).toBe(3);
    expect(await log.getByRole('row').nth(1).textContent()).toMatch(/Failed.*HTTP 410.*gone for good/);
    receiver.answer({ status: 204 });
    expect(await seriousViolations(page)).toEqual([]);

    // Changing it: the secret stays hidden and kept unless typed again.
    await hook.getByRole('button', { name: 'Edit Ops hook' }).click();
    const edit = page.getByRole('dialog', { name: 'Edit Ops hook' });
    expect(await edit.getByLabel(/^Signing secret/).inputValue()).toBe('');
    await edit.getByLabel(/^Name/).fill('Ops webhook');
    await edit.getByRole('button', { name: 'Save the channel' }).click();
    await edit.waitFor({ state: 'detached' });
    await table.getByRole('row', { name: /Ops webhook/ }).waitFor();
    const sent = receiver.requests.length;
    await table.getByRole('button', { name: 'Send a test to Ops webhook' }).click();
    await page.getByRole('alert').filter({ hasText: 'Test sent to Ops webhook' }).waitFor();
    expect(receiver.requests.length).toBe(sent + 1);

    // A new signing secret, asked for first and shown once; the next delivery is signed with it.
    await table.getByRole('button', { name: 'Edit Ops webhook' }).click();
    const again = page.getByRole('dialog', { name: 'Edit Ops webhook' });
    await again.getByRole('button', { name: 'New signing secret' }).click();
    await again.getByRole('button', { name: 'Generate it' }).click();
    await again.waitFor({ state: 'detached' });
    const renewed = await shown.getByLabel('Signing secret').inputValue();
    expect(renewed).toMatch(/^whsec_/);
    expect(renewed).not.toBe(secret);
    await shown.getByRole('button', { name: 'I have saved it' }).click();
    await table.getByRole('button', { name: 'Send a test to Ops webhook' }).click();
    await expect.poll(() => receiver.requests.length).toBe(sent + 2);
    const signed = receiver.requests.at(-1);
    expect(() => new Webhook(renewed).verify(signed?.raw ?? '', signed?.headers as never)).not.toThrow();
    await page.reload();
    await table.getByRole('row', { name: /Ops webhook/ }).waitFor();
    expect(await page.content()).not.toContain(secret);
    expect(await page.content()).not.toContain(renewed);
  });

  it('edits a message template with a live preview of every kind, its refusal under the field', {
    timeout: scaled(60_000),
  }, async () => {
    const table = page.getByRole('table', { name: /notification channels/ });
    await table.getByRole('button', { name: 'Edit Ops webhook' }).click();
    const edit = page.getByRole('dialog', { name: 'Edit Ops webhook' });
    const title = edit.getByLabel(/^Title template/);
    await title.fill('{{kindLabel}}: {{monitr.name}}');
    await expect.poll(() => title.getAttribute('aria-invalid')).toBe('true');
    expect(await edit.getByText(/line 1: unknown field "monitr.name"/).isVisible()).toBe(true);
    await title.fill('{{kindLabel}} for {{organization.name}}');
    await edit.getByLabel(/^Body template/).fill('{{reason}}');
    const preview = edit.getByRole('region', { name: 'Template preview' });
    const down = preview.locator('[data-kind="monitor.down"]');
    await expect.poll(() => down.textContent()).toContain('Monitor down for Acme');
    // A sample of every kind an event can be.
    expect(await preview.locator('[data-kind]').count()).toBe(NOTIFICATION_KINDS.length);
    // Previewed as the form's type sends it: a title past the limits is cut, and the sample says so.
    await title.fill(`{{kindLabel}} ${'x'.repeat(300)}`);
    await expect.poll(() => down.textContent()).toContain('title cut');
    await title.fill('{{kindLabel}} for {{organization.name}}');
    await expect.poll(() => down.textContent()).not.toContain('title cut');
    expect(await seriousViolations(page)).toEqual([]);
    await edit.getByRole('button', { name: 'Save the channel' }).click();
    await edit.waitFor({ state: 'detached' });
    await table.getByRole('button', { name: 'Send a test to Ops webhook' }).click();
    await expect
      .poll(() => (receiver.requests.at(-1)?.json as { message?: unknown } | undefined)?.message)
      .toEqual({ title: 'Test for Acme', body: expect.stringMatching(/^Sent from Warden/) });
  });

  it("picks a monitor's channels by name in its Notify field", { timeout: scaled(60_000) }, async () => {
    await page.goto(`${warden.url}/app/monitors/new`);
    await page.getByLabel(/^Type/).selectOption('heartbeat');
    await page.getByLabel(/^Name/).fill('Nightly backup');
    const notify = page.getByRole('combobox', { name: 'Notify' });
    await notify.click();
    expect(await page.getByRole('option', { name: 'Ops from the file (ops-yaml)' }).isVisible()).toBe(true);
    await page.getByRole('option', { name: 'Ops webhook (ops-hook)' }).click();
    expect(await seriousViolations(page)).toEqual([]);
    await page.getByRole('button', { name: 'Create monitor' }).click();
    await page.getByRole('heading', { name: 'Nightly backup created' }).waitFor();
    const stored = await warden.opened.store.monitors.findByKey(warden.organizationId, 'nightly-backup');
    expect(stored?.notify).toEqual(['ops-hook']);
  });
});
