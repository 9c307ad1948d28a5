// The dashboard's push monitors in real Chromium against a real Warden: a heartbeat monitor created through the form
// shows its push URL once, with curl and cron snippets that work (a push to it shows as a passed check).
import { describe, expect, it } from 'vitest';
import { scaled } from '../time-scale.js';
import { field, monitorScreens } from './dashboard-monitors-harness.js';

describe('the dashboard’s monitor screens', () => {
  const d = monitorScreens();

  it('creates a push monitor and shows its token once, with snippets that work', {
    timeout: scaled(30_000),
  }, async () => {
    const { context, page } = await d.open('/monitors/new');
    try {
      await field(page, 'Type').selectOption('heartbeat');
      await field(page, 'Name').fill('Cron job');
      expect(await page.getByRole('button', { name: 'Test this check' }).count()).toBe(0);
      await page.getByRole('button', { name: 'Create monitor' }).click();
      await page.getByRole('heading', { name: 'Cron job created' }).waitFor();
      const url = await page.getByLabel('Push URL').inputValue();
      expect(url).toMatch(new RegExp(`^${d.warden.url}/api/push/wdp_`));
      expect(await page.getByText(/shown this once/).isVisible()).toBe(true);
      expect(await page.getByRole('tabpanel').textContent()).toContain(
        `curl -fsS "${url}?msg=backup%20ok&latency=812"`,
      );
      await page.getByRole('tab', { name: 'cron' }).click();
      expect(await page.getByRole('tabpanel').textContent()).toContain(
        `* * * * * curl -fsS -m 10 "${url}" > /dev/null`,
      );
      expect(await page.evaluate(() => JSON.stringify(localStorage))).not.toContain('wdp_');
      const ping = await fetch(url, { method: 'POST', body: JSON.stringify({ players: 3, maxPlayers: 10 }) });
      expect(ping.status).toBe(200);
      await page.getByRole('button', { name: 'Open the monitor' }).click();
      await page.getByRole('heading', { name: 'Cron job' }).waitFor();
      await expect
        .poll(async () => (await page.getByRole('table', { name: /Recent checks/ }).textContent()) ?? '')
        .toContain('Passed');
    } finally {
      await context.close();
    }
  });
});
