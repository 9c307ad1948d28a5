// A monitor run from several locations in real Chromium against a real Warden: its screen shows the quorum, each
// location's latest result and a response-time chart with one line per location; the form picks its other locations
// (the edge and the organization's relays, by name) and shows the API's refusal of a quorum under the field.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { scaled } from '../time-scale.js';
import { until } from '../until.js';
import { seriousViolations } from './dashboard-harness.js';
import { field, monitorScreens } from './dashboard-monitors-harness.js';

const YAML = `
organization: { key: acme, name: Acme }
relays:
  - { key: fra, name: Frankfurt }
  - { key: nyc, name: New York }
`;

describe('several locations in the dashboard', () => {
  const d = monitorScreens(YAML);
  const api = (method: string, path: string, body?: object) =>
    fetch(`${d.warden.url}${path}`, {
      method,
      headers: { authorization: `Bearer ${d.warden.writeKey}`, 'content-type': 'application/json' },
      ...(body ? { body: JSON.stringify(body) } : {}),
    });
  const monitor = async (key: string) =>
    (await (await api('GET', `/api/v1/monitors/${key}`)).json()) as Record<string, unknown>;
  let site: Server;
  let shopId: string;

  beforeAll(async () => {
    site = createServer((_req, res) => res.end('ok'));
    await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
    const { port } = site.address() as AddressInfo;
    const res = await api('POST', '/api/v1/monitors', {
      key: 'shop',
      name: 'Shop',
      type: 'http',
      locations: ['fra', 'nyc'],
      quorum: 2,
      config: { url: `http://127.0.0.1:${port}/` },
    });
    expect(res.status).toBe(201);
    shopId = ((await res.json()) as { id: string }).id;
    expect((await api('POST', '/api/v1/monitors/shop/check')).status).toBeLessThan(300);
    await until(
      'the edge reported',
      async () => ((await monitor('shop'))['locationStates'] as unknown[]).length > 0,
      20_000,
    );
  }, scaled(45_000));
  afterAll(async () => {
    await new Promise((resolve) => site?.close(resolve));
  });

  it('shows the quorum, each location’s latest result and a line per location', {
    timeout: scaled(60_000),
  }, async () => {
    const { context, page } = await d.open(`/monitors/${shopId}`);
    try {
      await page.getByRole('heading', { name: 'Locations', level: 2 }).waitFor({ timeout: 30_000 });
      expect(await page.getByText('Down when 2 of 3 locations see it down.').isVisible()).toBe(true);
      const table = page.getByRole('table', { name: "Each location's latest check" });
      const edge = table.getByRole('row').filter({ hasText: 'Warden (edge)' });
      await edge.waitFor();
      expect(await edge.textContent()).toMatch(/up.*yes/);
      // The canvas says nothing to a screen reader: the figure's caption names each location's line.
      const chart = page.getByRole('figure', { name: 'Response time by location over the last 24 hours' });
      await chart.waitFor({ timeout: 30_000 });
      const caption = (await chart.textContent()) ?? '';
      expect(caption).toMatch(/Warden \(edge\) from \d+ to \d+ ms/);
      expect(caption).toContain('Frankfurt (fra): no data');
      expect(caption).toContain('New York (nyc): no data');
      expect(await seriousViolations(page)).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it('picks other locations in the form and shows a refused quorum under its field', async () => {
    const { context, page } = await d.open(`/monitors/${shopId}/edit`);
    try {
      const quorum = field(page, 'Quorum');
      await quorum.waitFor({ timeout: 30_000 });
      // The relays by name, picked (their names come with the relay list, which may answer after the form shows).
      await page.getByText('Frankfurt (fra)', { exact: true }).waitFor({ timeout: 15_000 });
      await page.getByText('New York (nyc)', { exact: true }).waitFor({ timeout: 15_000 });
      await quorum.fill('4');
      await page.getByRole('button', { name: 'Save changes' }).click();
      await expect.poll(() => quorum.getAttribute('aria-invalid'), { timeout: 15_000 }).toBe('true');
      // The API's words, announced with the field.
      const described = await quorum.evaluate((el) =>
        (el.getAttribute('aria-describedby') ?? '')
          .split(' ')
          .map((ref) => document.getElementById(ref)?.textContent ?? '')
          .join(' '),
      );
      expect(described).toContain('at most the number of locations (3');
      expect(page.url()).toMatch(/\/edit$/);
      expect((await monitor('shop'))['quorum']).toBe(2);

      // Leaving New York out of the locations: two places, down as soon as one sees it down.
      await page.locator('#field-locations').click();
      await page.keyboard.press('Backspace');
      await page.keyboard.press('Escape');
      await quorum.fill('1');
      await page.getByRole('button', { name: 'Save changes' }).click();
      await page.waitForURL(new RegExp(`/app/monitors/${shopId}$`), { timeout: 30_000 });
      const saved = await monitor('shop');
      expect(saved['locations']).toEqual(['fra']);
      expect(saved['quorum']).toBe(1);
    } finally {
      await context.close();
    }
  }, 60_000);
});
