// The dashboard's organizations in real Chromium against a real Warden serving dist/web: switching (every screen then
// reads the organization in use, nothing of the other, and the choice is remembered) and deleting one (the user lands
// in the one left, and nothing asks for the deleted one again).
import { describe, expect, it } from 'vitest';
import { scaled } from '../time-scale.js';
import { seeding, shellDashboard } from './dashboard-harness.js';

const OTHER_YAML = `
organization: { key: borealis, name: Borealis }
monitors:
  - { key: aurora, name: Aurora, type: heartbeat, config: { graceSec: 600 } }
pages:
  - { slug: north, title: Borealis status }
`;

describe('the dashboard', () => {
  const d = shellDashboard();

  it('switches organization: every screen reads the other one’s, back and forth, and the choice is remembered', {
    timeout: scaled(30_000),
  }, async () => {
    const { report } = await (await seeding()).seed(d.warden.opened.store, OTHER_YAML, Date.now());
    const both = await d.user([
      { organizationId: d.warden.organizationId, role: 'viewer' },
      { organizationId: report.organization.id, role: 'admin' },
    ]);
    const context = await d.browser.newContext();
    try {
      await context.addCookies([{ name: 'warden_session', value: both.token, url: d.warden.url }]);
      const page = await context.newPage();
      const switchTo = async (name: string) => {
        await page.getByRole('combobox', { name: 'Organization' }).click();
        await page.getByRole('option', { name }).click();
      };
      const openPages = async (title: string) => {
        await page.getByRole('navigation', { name: 'Dashboard' }).getByRole('link', { name: 'Pages' }).click();
        await page.getByRole('link', { name: title }).waitFor();
      };
      await page.goto(`${d.warden.url}/app/monitors`);
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
  });

  it('deletes an organization: the user lands in the one left, whose monitors are shown, and nothing of the deleted one', {
    timeout: scaled(30_000),
  }, async () => {
    const both = await d.user([{ organizationId: d.warden.organizationId, role: 'owner' }], { name: 'Dora Deleter' });
    // Made through the API (warden.yaml's organizations cannot be deleted from the dashboard); an owner may, and owns it.
    const created = await fetch(`${d.warden.url}/api/v1/organizations`, {
      method: 'POST',
      headers: { cookie: both.cookie, origin: d.warden.url, 'content-type': 'application/json' },
      body: JSON.stringify({ key: 'doomed', name: 'Doomed' }),
    });
    expect(created.status).toBe(201);
    const context = await d.browser.newContext();
    try {
      await context.addCookies([{ name: 'warden_session', value: both.token, url: d.warden.url }]);
      const page = await context.newPage();
      await page.goto(`${d.warden.url}/app/monitors`);
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
  });
});
