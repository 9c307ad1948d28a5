// "Import from a panel" in real Chromium against a real Warden and the fake Pterodactyl panel (private targets allowed:
// it listens on 127.0.0.1): a refused key said under the key field, the servers proposed with their game and address,
// the ones ticked applied to a page with their resources monitors, a re-sync changing nothing, a server dropped from
// the panel listed as gone, "All servers" asking for every server, and the key kept out of the browser's storage and
// the address bar.
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type PterodactylPanelFake, startPterodactylPanel } from '../fakes/pterodactyl-panel.js';
import { scaled } from '../time-scale.js';
import { seriousViolations } from './dashboard-harness.js';
import { field, monitorScreens } from './dashboard-monitors-harness.js';

/** The text of the elements describing an input (its help and its error). */
const descriptionOf = (page: Page, label: string) =>
  field(page, label).evaluate((el) =>
    (el.getAttribute('aria-describedby') ?? '')
      .split(' ')
      .map((ref) => document.getElementById(ref)?.textContent ?? '')
      .join(' '),
  );

/** The cells of the report's row of a server, by column heading. */
async function reportRow(page: Page, server: string): Promise<Record<string, string>> {
  const table = page.getByRole('table', { name: 'What each server got' });
  const headings = await table.getByRole('columnheader').allInnerTexts();
  const cells = await table.getByRole('row').filter({ hasText: server }).getByRole('cell').allInnerTexts();
  return Object.fromEntries(headings.map((h, i) => [h.trim(), (cells[i] ?? '').trim()]));
}

describe('the panels screen', () => {
  const d = monitorScreens();
  let panel: PterodactylPanelFake;
  const api = (method: string, path: string, body?: object) =>
    fetch(`${d.warden.url}${path}`, {
      method,
      headers: { authorization: `Bearer ${d.warden.writeKey}`, 'content-type': 'application/json' },
      ...(body ? { body: JSON.stringify(body) } : {}),
    });
  beforeAll(async () => {
    panel = await startPterodactylPanel();
    expect((await api('POST', '/api/v1/pages', { slug: 'games', title: 'Games' })).status).toBe(201);
  });
  afterAll(async () => {
    await panel?.close();
  });

  it('discovers, applies the ticked servers with resources monitors, and re-syncs', {
    timeout: scaled(150_000),
  }, async () => {
    const { context, page } = await d.open('/panels');
    try {
      await page.getByRole('heading', { name: 'Import from a panel' }).waitFor({ timeout: 30_000 });
      await field(page, 'Panel URL').fill(panel.url);
      await field(page, 'Client API key').fill('ptlc_notTheKey');
      await page.getByRole('button', { name: 'Discover' }).click();
      await expect
        .poll(() => descriptionOf(page, 'Client API key'), { timeout: 30_000 })
        .toContain('the panel refused the key');

      await field(page, 'Client API key').fill(panel.key);
      await page.getByRole('button', { name: 'Discover' }).click();
      const servers = page.getByRole('table', { name: 'Servers on the panel' });
      await servers.waitFor({ timeout: 30_000 });
      expect(await servers.getByRole('row').count()).toBe(7);
      const survival = servers.getByRole('row').filter({ hasText: 'Survival' });
      expect(await survival.innerText()).toMatch(
        /1a7ce997[\s\S]*Minecraft[\s\S]*from the egg[\s\S]*mc\.example\.com:25565/,
      );
      const voice = await servers.getByRole('row').filter({ hasText: 'Voice' }).innerText();
      expect(voice).toContain('no game recognized: a TCP check');
      expect(await descriptionOf(page, 'Client API key')).not.toContain('refused');

      await page.getByRole('checkbox', { name: 'Apply Pocket' }).uncheck();
      await page.getByRole('switch', { name: /resources monitor/ }).check();
      expect(await field(page, 'Status page').inputValue()).toBe('games');
      expect(await seriousViolations(page)).toEqual([]);
      await page.getByRole('button', { name: 'Apply 5 servers' }).click();
      await page.getByRole('table', { name: 'What each server got' }).waitFor({ timeout: 30_000 });
      expect(await reportRow(page, 'Survival')).toMatchObject({
        Monitor: 'created',
        'Resource monitor': 'created',
        Component: 'created',
        Error: '—',
      });
      expect(await page.getByRole('table', { name: 'What each server got' }).getByRole('row').count()).toBe(6);
      expect(await seriousViolations(page)).toEqual([]);
      expect((await api('GET', '/api/v1/monitors/ptero-1a7ce997')).status).toBe(200);
      expect((await api('GET', '/api/v1/monitors/ptero-1a7ce997-resources')).status).toBe(200);
      expect((await api('GET', '/api/v1/monitors/ptero-2b8df008')).status).toBe(404);

      // Applying again is a re-sync: nothing changed on the panel, nothing changes here.
      await page.getByRole('button', { name: 'Apply 5 servers' }).click();
      await expect
        .poll(async () => (await reportRow(page, 'Survival'))['Monitor'], { timeout: 30_000 })
        .toBe('unchanged');
      expect(await reportRow(page, 'Arena')).toMatchObject({ Component: 'unchanged', 'Resource monitor': 'unchanged' });

      // A server dropped from the panel is listed as gone, with what apply made for it, and left in place.
      panel.servers = panel.servers.filter((s) => s.identifier !== '1a7ce997');
      await page.getByRole('button', { name: 'Discover' }).click();
      await expect.poll(() => servers.getByRole('row').count(), { timeout: 30_000 }).toBe(6);
      await page.getByRole('checkbox', { name: 'Apply Pocket' }).uncheck();
      await page.getByRole('button', { name: 'Apply 4 servers' }).click();
      const gone = page.getByRole('list', { name: 'Gone from the panel (left in place)' });
      await expect
        .poll(() => gone.getByRole('listitem').allInnerTexts(), { timeout: 30_000 })
        .toEqual([
          expect.stringMatching(
            /^ptero-1a7ce997: monitors ptero-1a7ce997, ptero-1a7ce997-resources · component ptero-1a7ce997 · restart window /,
          ),
        ]);
      expect((await api('GET', '/api/v1/monitors/ptero-1a7ce997')).status).toBe(200);

      // Every server of the panel is asked for with the switch; this key is no root admin's, so the panel lists none.
      await page.getByRole('switch', { name: /All servers/ }).check();
      await page.getByRole('button', { name: 'Discover' }).click();
      await page.getByText('The key sees no servers on this panel.').waitFor({ timeout: 30_000 });
      expect(panel.requests.some((r) => r.includes('type=admin-all'))).toBe(true);

      // The key was only ever in the screen: not in the address, the browser's storage or a cookie.
      const kept = await page.evaluate(
        () => JSON.stringify({ ...localStorage }) + JSON.stringify({ ...sessionStorage }),
      );
      expect(kept).not.toContain(panel.key);
      expect(page.url()).not.toContain(panel.key);
      expect(JSON.stringify(await context.cookies())).not.toContain(panel.key);
    } finally {
      await context.close();
    }
  });
});
