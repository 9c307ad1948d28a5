// The dashboard's settings and account screens in real Chromium against a real Warden: an owner signs in through the
// login screen, makes an API key that then works from outside the browser (and stops once revoked), invites a viewer
// who signs up from the link in a fresh browser and cannot edit anything, turns TOTP on from the QR screen's secret
// (new recovery codes, after a while, ask for the password first) and signs in again with a code, and finds all of it
// in the audit log. axe runs on every settings screen.
import { Secret, TOTP } from 'otpauth';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type SignedInUser, signedInUser } from '../accounts.js';
import { seriousViolations as axeViolations } from '../axe.js';
import { launchChromium } from '../browser.js';
import { type SeededWarden, startSeededWarden } from '../seeded-warden.js';
import { dialects } from '../store-dialects.js';
import { scaled } from '../time-scale.js';

const YAML = `
organization: { key: acme, name: Acme }
monitors:
  - { key: lobby, name: Lobby, type: heartbeat, config: { graceSec: 600 } }
`;
/** Older entries than one page of the audit log holds, so "Load more" has something to load. */
const OLD_ENTRIES = 55;

// seed.js is imported once the server's modules are loaded (see dashboard-harness.ts).
const seeding = () => import('../seed.js');

describe('the dashboard’s settings and account screens', () => {
  let warden: SeededWarden;
  let browser: Browser;
  let owner: SignedInUser;
  let ownerContext: BrowserContext;
  let page: Page;

  beforeAll(async () => {
    warden = await startSeededWarden(dialects.find((d) => d.name === 'sqlite')!, YAML);
    const { testContext } = await seeding();
    const ctx = {
      ...testContext(warden.opened.store, { now: () => Date.now() }),
      organizationId: warden.organizationId,
    };
    owner = await signedInUser(ctx, [{ organizationId: warden.organizationId, role: 'owner' }], {
      name: 'Olive Owner',
    });
    const { recordAudit } = await import('../../src/services/audit/record.js');
    const hourAgo = Date.now() - 3_600_000;
    for (let i = 0; i < OLD_ENTRIES; i++)
      await recordAudit(
        { ...ctx, clock: { now: () => hourAgo + i }, actor: { kind: 'system', name: 'cli' } },
        { action: 'monitor.check', id: null, label: `old ${i}`, detail: null },
      );
    browser = await launchChromium();
    ownerContext = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    page = await ownerContext.newPage();
  });
  afterAll(async () => {
    await browser?.close();
    await warden?.close();
  });

  async function seriousViolations(on: Page): Promise<string[]> {
    // Away from whatever was just clicked: a hovered link's passing colours are not the screen's.
    await on.mouse.move(0, 0);
    return axeViolations(on);
  }

  async function signIn(on: Page, email: string, password: string, code?: () => string): Promise<void> {
    await on.goto(`${warden.url}/app/login`);
    await on.getByLabel('Email').fill(email);
    await on.getByLabel(/^Password/).fill(password);
    await on.getByRole('button', { name: 'Sign in' }).click();
    if (code) {
      await on.getByLabel(/^Authentication code/).fill(code());
      await on.getByRole('button', { name: 'Verify' }).click();
    }
    await on.waitForURL(/\/app\/monitors$/);
  }

  it('signs in, creates an API key shown once that works from outside the browser, and revokes it', {
    timeout: scaled(30_000),
  }, async () => {
    await signIn(page, owner.email, owner.password);
    await page.getByRole('navigation', { name: 'Dashboard' }).getByRole('link', { name: 'API keys' }).click();
    await page.getByRole('heading', { name: 'New API key' }).waitFor();
    expect(await seriousViolations(page)).toEqual([]);

    await page.getByRole('textbox', { name: /^Name/ }).fill('ci-bot');
    await page.getByRole('radio', { name: /^Write/ }).check();
    await page.getByRole('button', { name: 'Create the key' }).click();
    const field = page.getByRole('textbox', { name: 'API key' });
    const key = await field.inputValue();
    expect(key).toMatch(/^wdn_/);
    expect(await page.getByText('it is shown only once').isVisible()).toBe(true);
    const monitors = await fetch(`${warden.url}/api/v1/monitors`, { headers: { authorization: `Bearer ${key}` } });
    expect(monitors.status).toBe(200);
    expect((await monitors.json()).monitors.map((m: { key: string }) => m.key)).toEqual(['lobby']);

    const row = page.getByRole('row', { name: /ci-bot/ });
    await expect.poll(() => row.textContent()).toContain('write');
    expect(await row.textContent()).toContain(key.slice(0, 12));
    // Gone from the screen once dismissed: nothing on the page holds it any more.
    await page.getByRole('button', { name: 'I have saved it' }).click();
    // The dialog leaves with a short transition: wait for it to be gone rather than read the page mid-animation.
    await expect.poll(() => page.content()).not.toContain(key);
    expect(await page.evaluate(() => JSON.stringify({ ...localStorage, ...sessionStorage }))).not.toContain('wdn_');

    await row.getByRole('button', { name: 'Revoke ci-bot' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Revoke the key' }).click();
    await expect.poll(() => row.textContent()).toContain('Revoked');
    expect((await fetch(`${warden.url}/api/v1/monitors`, { headers: { authorization: `Bearer ${key}` } })).status).toBe(
      401,
    );
  });

  it('invites a viewer whose link, opened in a fresh browser, signs them up; the viewer can edit nothing', {
    timeout: scaled(30_000),
  }, async () => {
    await page.getByRole('navigation', { name: 'Dashboard' }).getByRole('link', { name: 'Members' }).click();
    await page.getByRole('heading', { name: 'Invite someone' }).waitFor();
    await page.getByRole('table', { name: /Members of the organization/ }).waitFor();
    expect(await seriousViolations(page)).toEqual([]);
    await page.getByRole('textbox', { name: /^Email/ }).fill('vera@example.com');
    await page.getByRole('button', { name: 'Create the invitation' }).click();
    const link = await page.getByRole('textbox', { name: 'Invitation link' }).inputValue();
    expect(link).toMatch(/\/app\/invite\?token=wdi_/);
    // No SMTP server here: the screen says the link was not mailed.
    expect(await page.getByText(/^Not mailed/).isVisible()).toBe(true);
    expect(await page.getByText(/makes its holder a viewer,/).isVisible()).toBe(true);
    await expect
      .poll(() => page.getByRole('table', { name: /Invitations not accepted/ }).textContent())
      .toContain('vera@example.com');

    const invitee = await browser.newContext({ viewport: { width: 390, height: 844 } });
    try {
      const viewerPage = await invitee.newPage();
      const { pathname, search } = new URL(link);
      await viewerPage.goto(`${warden.url}${pathname}${search}`);
      await viewerPage.getByRole('heading', { name: 'Join Acme' }).waitFor();
      await viewerPage.getByRole('textbox', { name: /^Your name/ }).fill('Vera Viewer');
      expect(await viewerPage.getByRole('textbox', { name: /^Email/ }).inputValue()).toBe('vera@example.com');
      await viewerPage.getByLabel(/^Password/).fill('a long viewer password');
      await viewerPage.getByRole('button', { name: /Create the account and join Acme/ }).click();
      await viewerPage.waitForURL(/\/app\/monitors$/);

      // Members: no invitation form, no role pickers, only leaving.
      await viewerPage.goto(`${warden.url}/app/settings/members`);
      const table = viewerPage.getByRole('table', { name: /Members of the organization/ });
      await table.getByRole('row', { name: /Vera Viewer/ }).waitFor();
      expect(await table.getByRole('row', { name: /Olive Owner/ }).textContent()).toContain('owner');
      expect(await viewerPage.getByRole('combobox', { name: /^Role of/ }).count()).toBe(0);
      expect(await viewerPage.getByRole('heading', { name: 'Invite someone' }).count()).toBe(0);
      expect(await viewerPage.getByRole('button', { name: /^Remove/ }).count()).toBe(0);
      expect(await viewerPage.getByRole('button', { name: 'Leave the organization' }).isVisible()).toBe(true);
      // API keys and the organization: refused or read-only.
      await viewerPage.goto(`${warden.url}/app/settings/api-keys`);
      await viewerPage.getByText('Only admins and owners see and manage API keys').waitFor();
      expect(await viewerPage.getByRole('button', { name: 'Create the key' }).count()).toBe(0);
      await viewerPage.goto(`${warden.url}/app/settings/organization`);
      expect(await viewerPage.getByRole('textbox', { name: /^Organization name/ }).isDisabled()).toBe(true);
      expect(await viewerPage.getByRole('button', { name: /^Delete/ }).count()).toBe(0);
      // The API is the authority: a write from this browser, with its cookie and its origin, is refused.
      const status = await viewerPage.evaluate(async () => {
        const res = await fetch('/api/v1/monitors', {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ key: 'sneaky', name: 'Sneaky', type: 'heartbeat', config: { graceSec: 60 } }),
        });
        return res.status;
      });
      expect(status).toBe(403);
    } finally {
      await invitee.close();
    }
    // The owner sees the new member as a viewer, with a role picker they may use.
    await page.reload();
    const role = page.getByRole('combobox', { name: 'Role of Vera Viewer' });
    await expect.poll(() => role.inputValue()).toBe('viewer');
    await role.click();
    await page.getByRole('option', { name: 'editor' }).click();
    await expect
      .poll(async () =>
        (
          await (
            await fetch(`${warden.url}/api/v1/members`, { headers: { authorization: `Bearer ${warden.readKey}` } })
          ).json()
        ).members.map((m: { role: string }) => m.role),
      )
      .toContain('editor');
  });

  it('shows the organization warden.yaml declares as read-only, with its badge', async () => {
    await page.getByRole('navigation', { name: 'Dashboard' }).getByRole('link', { name: 'Organization' }).click();
    await page.getByText('Key acme', { exact: false }).waitFor();
    expect(await page.getByLabel('Managed by warden.yaml: change it in the file').isVisible()).toBe(true);
    expect(await page.getByRole('textbox', { name: /^Organization name/ }).isDisabled()).toBe(true);
    expect(await page.getByRole('button', { name: 'Delete Acme…' }).isDisabled()).toBe(true);
    expect(await seriousViolations(page)).toEqual([]);
  });

  it('turns TOTP on from the secret the screen shows, then signs in again with password and code', {
    timeout: scaled(30_000),
  }, async () => {
    await page.goto(`${warden.url}/app/account`);
    await page.getByRole('heading', { name: 'Two-factor authentication' }).waitFor();
    await page
      .getByRole('table', { name: /Browsers signed in as you/ })
      .getByText('this device')
      .waitFor();
    await page.getByRole('button', { name: 'Set up two-factor authentication' }).click();
    await page.getByRole('img', { name: /QR code of the authenticator link/ }).waitFor();
    const secret = ((await page.getByTestId('totp-secret').textContent()) ?? '').trim();
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    await page
      .getByRole('textbox', { name: /6-digit code/ })
      .fill(TOTP.generate({ secret: Secret.fromBase32(secret) }));
    await page.getByRole('button', { name: 'Turn on' }).click();
    const codes = (await page.getByRole('textbox', { name: 'Recovery codes' }).inputValue()).split('\n');
    expect(codes).toHaveLength(10);
    await expect.poll(() => page.getByText('On', { exact: true }).isVisible()).toBe(true);
    expect(await seriousViolations(page)).toEqual([]);

    // Signed in a while ago (as if): new recovery codes first ask for the password, then show.
    for (const session of await warden.opened.store.sessions.listByUser(owner.userId, Date.now()))
      await warden.opened.store.sessions.prove(session.id, Date.now() - 3_600_000);
    await page.getByRole('button', { name: 'New recovery codes' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Make new codes' }).click();
    const prompt = page.getByRole('group', { name: 'Confirm it is you' });
    await prompt.getByLabel(/^Your password/).fill('not my password');
    await prompt.getByRole('button', { name: 'Make new codes' }).click();
    await prompt.getByText('is not your password').waitFor();
    expect(await seriousViolations(page)).toEqual([]);
    await prompt.getByLabel(/^Your password/).fill(owner.password);
    await prompt.getByRole('button', { name: 'Make new codes' }).click();
    const shown = page.getByRole('textbox', { name: 'Recovery codes' });
    await expect.poll(async () => (await shown.inputValue()).split('\n')[0]).not.toBe(codes[0]);
    expect((await shown.inputValue()).split('\n')).toHaveLength(10);
    // No mail server here: the email is the operator's to change, and the screen says so.
    expect(await page.getByRole('textbox', { name: /^Email/ }).getAttribute('readonly')).not.toBeNull();
    expect(await page.getByText('warden users set-email', { exact: false }).isVisible()).toBe(true);

    await page.getByRole('button', { name: /^Account menu of / }).click();
    await page.getByRole('menuitem', { name: 'Sign out' }).click();
    await page.waitForURL(/\/app\/login/);
    // The code that confirmed enrolment is used up: the app's next code (inside the server's window) signs in.
    await signIn(page, owner.email, owner.password, () =>
      TOTP.generate({ secret: Secret.fromBase32(secret), timestamp: Date.now() + 30_000 }),
    );
  });

  it('lists the key’s creation and the invitation by their actor, newest first, filtered and a page at a time', {
    timeout: scaled(30_000),
  }, async () => {
    await page.getByRole('navigation', { name: 'Dashboard' }).getByRole('link', { name: 'Audit log' }).click();
    const table = page.getByRole('table', { name: /Audit log entries/ });
    await table.waitFor();
    const created = table.getByRole('row').filter({ hasText: 'api-key.create' });
    expect(await created.textContent()).toContain('Olive Owner');
    expect(await created.textContent()).toContain('ci-bot');
    // The object's type as people write it, not its code.
    expect(await created.textContent()).toContain('API key ci-bot');
    expect(await table.getByRole('row').filter({ hasText: 'invitation.create' }).textContent()).toContain(
      'Olive Owner',
    );
    expect(await table.getByRole('row').filter({ hasText: 'invitation.accept' }).textContent()).toContain(
      'Vera Viewer',
    );
    // The member still exists: the entry of their new role links to the members screen; the revoked key's does not link.
    const promoted = table.getByRole('row').filter({ hasText: 'member.update' });
    expect(await promoted.textContent()).toContain('Olive Owner');
    expect(await promoted.getByRole('link', { name: 'vera@example.com' }).getAttribute('href')).toBe(
      '/app/settings/members',
    );
    expect(await created.getByRole('link').count()).toBe(0);
    expect(await seriousViolations(page)).toEqual([]);

    const status = page.getByRole('status').filter({ hasText: /entr/ });
    await expect.poll(() => status.textContent()).toBe('50 entries shown (older ones follow)');
    await page.getByRole('button', { name: 'Load more' }).click();
    await expect.poll(() => table.getByRole('row').count()).toBeGreaterThan(OLD_ENTRIES + 1);
    expect(await page.getByRole('button', { name: 'Load more' }).count()).toBe(0);

    await page.getByRole('combobox', { name: 'Object type' }).click();
    await page.getByRole('option', { name: 'API key' }).click();
    await expect.poll(() => table.getByRole('row').count()).toBe(3);
    expect(await table.textContent()).toContain('api-key.revoke');
  });
});
