// The monitor form's "Player alerts" in real Chromium against a real Warden: set on a game monitor, kept across a
// reload, refused with the API's own words under the band, and absent from a monitor that reports no players.
import { describe, expect, it } from 'vitest';
import { scaled } from '../time-scale.js';
import { seriousViolations } from './dashboard-harness.js';
import { monitorScreens } from './dashboard-monitors-harness.js';

describe('the monitor form’s player alerts', () => {
  const d = monitorScreens();

  const createMonitor = async (body: object): Promise<string> => {
    const res = await fetch(`${d.warden.url}/api/v1/monitors`, {
      method: 'POST',
      headers: { authorization: `Bearer ${d.warden.writeKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({ enabled: false, ...body }),
    });
    expect(res.status).toBe(201);
    return ((await res.json()) as { id: string }).id;
  };
  const storedAlerts = async (id: string): Promise<unknown> =>
    (
      (await (
        await fetch(`${d.warden.url}/api/v1/monitors/${id}`, {
          headers: { authorization: `Bearer ${d.warden.readKey}` },
        })
      ).json()) as { playerAlerts: unknown }
    ).playerAlerts;

  it('saves full for 10 minutes, a band and a change to announce, shown again after a reload', {
    timeout: scaled(120_000),
  }, async () => {
    const id = await createMonitor({
      key: 'arena',
      name: 'Arena',
      type: 'source',
      config: { host: 'cs.example.com' },
    });
    const { context, page } = await d.open(`/monitors/${id}/edit`);
    try {
      const alerts = page.getByRole('group', { name: 'Player alerts' });
      // The form waits for the monitor types and the monitor: slow on a busy machine.
      await alerts.waitFor({ timeout: 30_000 });
      await alerts.getByLabel('Full for (minutes)').fill('10');
      await alerts.getByLabel('Fewest players').fill('2');
      await alerts.getByLabel('Most players').fill('60');
      await alerts.getByRole('checkbox', { name: 'Map' }).check();
      await page.getByRole('button', { name: 'Save changes' }).click();
      await page.waitForURL(new RegExp(`/app/monitors/${id}$`), { timeout: 30_000 });
      expect(await storedAlerts(id)).toEqual({ fullForMin: 10, band: { min: 2, max: 60 }, changes: ['map'] });

      // A fresh load of the edit page: what it shows comes from the server.
      await page.goto(`${d.warden.url}/app/monitors/${id}/edit`);
      const again = page.getByRole('group', { name: 'Player alerts' });
      await again.waitFor({ timeout: 30_000 });
      await expect.poll(() => again.getByLabel('Full for (minutes)').inputValue()).toBe('10');
      expect(await again.getByLabel('Fewest players').inputValue()).toBe('2');
      expect(await again.getByLabel('Most players').inputValue()).toBe('60');
      expect(await again.getByLabel('Queue above (players)').inputValue()).toBe('');
      expect(await again.getByRole('checkbox', { name: 'Map' }).isChecked()).toBe(true);
      expect(await again.getByRole('checkbox', { name: 'Version' }).isChecked()).toBe(false);
    } finally {
      await context.close();
    }
  });

  it('shows the API’s refusal of a band whose least is above its most on the band, and keeps what was stored', {
    timeout: scaled(120_000),
  }, async () => {
    const id = await createMonitor({
      key: 'arena-band',
      name: 'Arena band',
      type: 'source',
      config: { host: 'cs.example.com' },
      playerAlerts: { fullForMin: 5 },
    });
    const { context, page } = await d.open(`/monitors/${id}/edit`);
    try {
      const alerts = page.getByRole('group', { name: 'Player alerts' });
      // The form waits for the monitor types and the monitor: slow on a busy machine.
      await alerts.waitFor({ timeout: 30_000 });
      await alerts.getByLabel('Fewest players').fill('50');
      await alerts.getByLabel('Most players').fill('10');
      await page.getByRole('button', { name: 'Save changes' }).click();
      // The zod refinement's message, tied to the input as its description (aria-describedby).
      const fewest = alerts.getByLabel('Fewest players');
      await expect.poll(() => fewest.getAttribute('aria-invalid')).toBe('true');
      const describedBy = await fewest.evaluate((el) =>
        (el.getAttribute('aria-describedby') ?? '')
          .split(' ')
          .map((ref) => document.getElementById(ref)?.textContent ?? '')
          .join(' '),
      );
      expect(describedBy).toContain('min must not exceed max');
      expect(await alerts.getByLabel('Most players').getAttribute('aria-invalid')).toBe('true');
      expect(await seriousViolations(page)).toEqual([]);
      expect(page.url()).toMatch(/\/edit$/);
      expect(await storedAlerts(id)).toEqual({ fullForMin: 5 });

      // Emptying every field removes the alerts.
      await alerts.getByLabel('Full for (minutes)').fill('');
      await alerts.getByLabel('Fewest players').fill('');
      await alerts.getByLabel('Most players').fill('');
      await page.getByRole('button', { name: 'Save changes' }).click();
      await page.waitForURL(new RegExp(`/app/monitors/${id}$`), { timeout: 30_000 });
      expect(await storedAlerts(id)).toBeNull();
    } finally {
      await context.close();
    }
  });

  it('has no player alerts for a monitor that reports no players', { timeout: scaled(120_000) }, async () => {
    const id = await createMonitor({ key: 'site', name: 'Site', type: 'http', config: { url: 'https://example.com' } });
    const { context, page } = await d.open(`/monitors/${id}/edit`);
    try {
      await page.getByRole('button', { name: 'Save changes' }).waitFor({ timeout: 30_000 });
      expect(await page.getByRole('group', { name: 'Player alerts' }).count()).toBe(0);
    } finally {
      await context.close();
    }
  });
});
