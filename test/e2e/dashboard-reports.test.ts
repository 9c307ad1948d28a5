// The Reports screen in real Chromium against a real Warden: every monitor's uptime over the last 30 days by default,
// then a monitor and a page over 7 days in a table and a chart, downloaded as CSV and JSON, and a custom range the
// API refuses said under its field.
import { readFile } from 'node:fs/promises';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { scaled } from '../time-scale.js';
import { seriousViolations } from './dashboard-harness.js';
import { monitorScreens } from './dashboard-monitors-harness.js';

/** The cells of the table's row of a subject, by column heading. */
async function reportRow(page: Page, subject: string): Promise<Record<string, string>> {
  const table = page.getByRole('table', { name: /^Uptime from/ });
  const headings = await table.getByRole('columnheader').allInnerTexts();
  const row = table.getByRole('row').filter({ has: page.getByRole('rowheader', { name: new RegExp(`^${subject}`) }) });
  const cells = [await row.getByRole('rowheader').innerText(), ...(await row.getByRole('cell').allInnerTexts())];
  return Object.fromEntries(headings.map((h, i) => [h.trim(), (cells[i] ?? '').trim()]));
}

const isoDay = (ms: number) => new Date(ms).toISOString().slice(0, 10);

describe('the Reports screen', () => {
  const d = monitorScreens();
  const api = (method: string, path: string, body?: object) =>
    fetch(`${d.warden.url}${path}`, {
      method,
      headers: { authorization: `Bearer ${d.warden.writeKey}`, 'content-type': 'application/json' },
      ...(body ? { body: JSON.stringify(body) } : {}),
    });

  beforeAll(async () => {
    const created = await api('POST', '/api/v1/monitors', {
      key: 'lobby',
      name: 'Lobby',
      type: 'heartbeat',
      runOn: 'push',
      config: { graceSec: 600 },
    });
    expect(created.status).toBe(201);
    const { pushToken } = (await created.json()) as { pushToken: string };
    for (let i = 0; i < 3; i++)
      expect((await fetch(`${d.warden.url}/api/push/${pushToken}?status=up`)).status).toBe(200);
    expect((await api('POST', '/api/v1/pages', { slug: 'games', title: 'Games' })).status).toBe(201);
    const component = { key: 'hub', name: 'Hub', monitor: 'lobby' };
    expect((await api('POST', '/api/v1/pages/games/components', component)).status).toBe(201);
  }, scaled(30_000));

  it('reports every monitor, then a monitor and a page over 7 days with a chart, as CSV and JSON', {
    timeout: scaled(60_000),
  }, async () => {
    const { context, page } = await d.open('/reports');
    try {
      const today = isoDay(Date.now());
      await page
        .getByRole('table', { name: `Uptime from ${isoDay(Date.now() - 29 * 86_400_000)} to ${today} (UTC)` })
        .waitFor({ timeout: 30_000 });
      await expect
        .poll(() => reportRow(page, 'Lobby'), { timeout: 15_000 })
        .toMatchObject({
          Subject: expect.stringContaining('Monitor · lobby'),
          Availability: '100 %',
          Downtime: '0 min',
          Checks: '3',
        });
      expect((await reportRow(page, 'Nightly backups'))['Availability']).toBe('–');

      await page.locator('label', { hasText: /^7 days$/ }).click();
      await page.getByRole('combobox', { name: 'Monitors' }).click();
      await page.getByRole('option', { name: 'Lobby (lobby)' }).click();
      await page.keyboard.press('Escape');
      await page.getByRole('combobox', { name: 'Pages' }).click();
      await page.getByRole('option', { name: 'Games' }).click();
      await page.keyboard.press('Escape');
      const week = page.getByRole('table', {
        name: `Uptime from ${isoDay(Date.now() - 6 * 86_400_000)} to ${today} (UTC)`,
      });
      await expect
        .poll(() => week.getByRole('rowheader').allInnerTexts(), { timeout: 15_000 })
        .toEqual([expect.stringMatching(/^Lobby\s+Monitor · lobby$/), expect.stringMatching(/^Games\s+Page · games$/)]);
      expect((await reportRow(page, 'Games'))['Availability']).toBe('100 %');
      const chart = page.getByRole('figure', { name: 'Availability per day' });
      await chart.locator('canvas').first().waitFor({ timeout: 15_000 });
      expect(await chart.textContent()).toContain('Lobby from 100 to 100 %');
      expect(await seriousViolations(page)).toEqual([]);

      const [csv] = await Promise.all([
        page.waitForEvent('download', { timeout: 15_000 }),
        page.getByRole('button', { name: 'Download CSV' }).click(),
      ]);
      const from = isoDay(Date.now() - 6 * 86_400_000);
      expect(csv.suggestedFilename()).toBe(`uptime-${from}-${today}.csv`);
      const lines = (await readFile((await csv.path()) as string, 'utf8')).split('\r\n');
      expect(lines[0]).toMatch(/^subject_type,subject_id,subject_key,subject_name,period,checks,uptime,/);
      expect(lines.filter((l) => l.startsWith('monitor,'))).toHaveLength(7);
      expect(lines.filter((l) => l.startsWith('page,'))).toHaveLength(7);
      expect(lines.find((l) => l.includes(`,${today},`) && l.startsWith('monitor,'))).toMatch(
        /,lobby,Lobby,.*,3,1,100,0,/,
      );

      const [json] = await Promise.all([
        page.waitForEvent('download', { timeout: 15_000 }),
        page.getByRole('button', { name: 'Download JSON' }).click(),
      ]);
      const report = JSON.parse(await readFile((await json.path()) as string, 'utf8')) as {
        from: string;
        subjects: { key: string; summary: { availability: number } }[];
      };
      expect(report.from).toBe(from);
      expect(report.subjects.map((s) => [s.key, s.summary.availability])).toEqual([
        ['lobby', 100],
        ['games', 100],
      ]);
    } finally {
      await context.close();
    }
  });

  it('says under "From" why the API refuses a custom range', { timeout: scaled(60_000) }, async () => {
    const { context, page } = await d.open('/reports');
    try {
      await page.getByRole('table', { name: /^Uptime from/ }).waitFor({ timeout: 30_000 });
      await page.locator('label', { hasText: /^Custom$/ }).click();
      const from = page.getByLabel('From', { exact: true });
      await from.fill('2020-01-01');
      await expect.poll(() => from.getAttribute('aria-invalid'), { timeout: 15_000 }).toBe('true');
      const said = await from.evaluate((el) =>
        (el.getAttribute('aria-describedby') ?? '')
          .split(' ')
          .map((ref) => document.getElementById(ref)?.textContent ?? '')
          .join(' '),
      );
      expect(said).toMatch(/at most 400 days from from to to .*; this is \d+/);
      expect(await page.getByRole('table', { name: /^Uptime from/ }).count()).toBe(0);
    } finally {
      await context.close();
    }
  });
});
