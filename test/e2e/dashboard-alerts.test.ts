// The Alerts screen in real Chromium against a real Warden: two monitors down, an editor acknowledges one with a note
// and every member (a viewer too, who has no Acknowledge button) sees who did it; warden.yaml's policy is read-only
// with its badge, and the editor creates a two-step policy with the form.
import { describe, expect, it } from 'vitest';
import { signedInUser } from '../accounts.js';
import { scaled } from '../time-scale.js';
import { editorDashboard, seeding, seriousViolations } from './dashboard-harness.js';

const LOBBY = 'wdp_dashboardAlertsLobby0123456789';
const ARENA = 'wdp_dashboardAlertsArena0123456789';
const SECRET = `whsec_${Buffer.alloc(32, 5).toString('base64')}`;
// The channels point at a closed local port: nothing leaves the machine (and private targets are refused anyway).
const YAML = `
organization: { key: acme, name: Acme }
monitors:
  - { key: lobby, name: Lobby, type: heartbeat, pushToken: ${LOBBY}, config: { graceSec: 600 } }
  - { key: arena, name: Arena, type: heartbeat, pushToken: ${ARENA}, config: { graceSec: 600 } }
notifications:
  - { key: chat, name: Team chat, type: webhook, rules: { events: [] }, config: { url: "http://127.0.0.1:9/chat", secret: "${SECRET}" } }
  - { key: pager, name: Pager, type: webhook, rules: { events: [] }, config: { url: "http://127.0.0.1:9/pager", secret: "${SECRET}" } }
escalationPolicies:
  - { key: oncall, name: On call, steps: [{ afterMin: 0, channels: [chat] }, { afterMin: 30, channels: [pager] }] }
`;

describe('the alerts screen', () => {
  const d = editorDashboard(YAML);
  const push = async (token: string) =>
    expect(
      (await fetch(`${d.warden.url}/api/push/${token}`, { method: 'POST', body: '{"status":"down","msg":"gone"}' }))
        .status,
    ).toBe(200);

  it('lists open alerts, an editor acknowledges one, and a viewer sees who did it without the button', {
    timeout: scaled(90_000),
  }, async () => {
    await push(LOBBY);
    await push(ARENA);
    const { page } = d;
    await page.goto(`${d.warden.url}/app/alerts`);
    const alerts = page.getByRole('table', { name: 'The alerts, newest first.' });
    await alerts.waitFor({ timeout: 30_000 });
    const lobby = alerts.getByRole('row').filter({ hasText: 'Lobby' });
    await expect
      .poll(() => lobby.innerText(), { timeout: 30_000 })
      .toMatch(/Open \(down\)[\s\S]*Step 1 of 2 \(oncall\)[\s\S]*Not acknowledged/);
    expect(await seriousViolations(page)).toEqual([]);

    await page.getByRole('button', { name: 'Acknowledge the alert of Lobby' }).click();
    const dialog = page.getByRole('dialog', { name: 'Acknowledge the alert of Lobby' });
    await dialog.getByLabel('Note').fill('Restarting the proxy');
    await dialog.getByRole('button', { name: 'Acknowledge', exact: true }).click();
    await dialog.waitFor({ state: 'hidden' });
    await expect.poll(() => lobby.innerText()).toMatch(/Acknowledged\s*by editor-[\s\S]*Restarting the proxy/);
    expect(await page.getByRole('button', { name: 'Acknowledge the alert of Lobby' }).count()).toBe(0);
    expect(await page.getByRole('button', { name: 'Acknowledge the alert of Arena' }).isVisible()).toBe(true);

    // A viewer sees the same acknowledgement, and no way to acknowledge.
    const { testContext } = await seeding();
    const viewer = await signedInUser(
      { ...testContext(d.warden.opened.store, { now: () => Date.now() }), organizationId: d.warden.organizationId },
      [{ organizationId: d.warden.organizationId, role: 'viewer' }],
    );
    const context = await page
      .context()
      .browser()!
      .newContext({ viewport: { width: 1280, height: 900 } });
    try {
      await context.addCookies([{ name: 'warden_session', value: viewer.token, url: d.warden.url }]);
      const seen = await context.newPage();
      seen.setDefaultTimeout(scaled(10_000));
      await seen.goto(`${d.warden.url}/app/alerts`);
      const row = seen
        .getByRole('table', { name: 'The alerts, newest first.' })
        .getByRole('row')
        .filter({ hasText: 'Lobby' });
      await expect.poll(() => row.innerText(), { timeout: 30_000 }).toMatch(/by editor-[\s\S]*Restarting the proxy/);
      expect(await seen.getByRole('button', { name: /^Acknowledge/ }).count()).toBe(0);
      expect(await seen.getByRole('button', { name: 'New policy' }).count()).toBe(0);
    } finally {
      await context.close();
    }
  });

  it("shows warden.yaml's policy read-only, and creates a two-step policy with the form", {
    timeout: scaled(90_000),
  }, async () => {
    const { page } = d;
    await page.goto(`${d.warden.url}/app/alerts`);
    const policies = page.getByRole('table', { name: 'The organization’s escalation policies, by key.' });
    await policies.waitFor({ timeout: 30_000 });
    const oncall = policies.getByRole('row').filter({ hasText: 'On call' });
    expect(await oncall.innerText()).toMatch(
      /warden\.yaml[\s\S]*Every monitor[\s\S]*At once: Team chat[\s\S]*After 30 min: Pager/,
    );
    expect(await oncall.getByRole('button').count()).toBe(0);

    await page.getByRole('button', { name: 'New policy' }).click();
    const form = page.getByRole('form', { name: 'New escalation policy' });
    await form.getByLabel(/^Key/).fill('night');
    await form.getByLabel(/^Name/).fill('Night shift');
    await form.getByRole('combobox', { name: 'Step 1: channels' }).click();
    await page.getByRole('option', { name: 'Team chat (chat)' }).click();
    // Closes the list (Escape would close the dialog too).
    await form.getByLabel(/^Name/).click();
    await form.getByRole('button', { name: 'Add a step' }).click();
    await form.getByLabel('Step 2: after (minutes)').fill('10');
    await form.getByRole('combobox', { name: 'Step 2: channels' }).click();
    await page.getByRole('option', { name: 'Pager (pager)' }).click();
    await form.getByLabel(/^Name/).click();
    await form.getByRole('button', { name: 'Create policy' }).click();
    await form.waitFor({ state: 'hidden' });
    const night = policies.getByRole('row').filter({ hasText: 'Night shift' });
    await expect.poll(() => night.innerText()).toMatch(/At once: Team chat[\s\S]*After 10 min: Pager/);
    expect(await night.getByRole('button', { name: 'Edit Night shift' }).isVisible()).toBe(true);
    const stored = await fetch(`${d.warden.url}/api/v1/escalation-policies/night`, {
      headers: { authorization: `Bearer ${d.warden.readKey}` },
    });
    expect(await stored.json()).toMatchObject({
      key: 'night',
      managedBy: 'api',
      monitors: null,
      steps: [
        { afterMin: 0, channels: ['chat'] },
        { afterMin: 10, channels: ['pager'] },
      ],
    });
    expect(await seriousViolations(page)).toEqual([]);
  });
});
