// Monitor dependencies in real Chromium against a real Warden: a child behind a down parent shows "unreachable:
// <parent> is down" in the monitor list and on its own screen, with its parent; the monitor form's "Depends on" saves
// a parent, and the API's refusal of a cycle shows under the field.
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { scaled } from '../time-scale.js';
import { until } from '../until.js';
import { seriousViolations } from './dashboard-harness.js';
import { monitorScreens } from './dashboard-monitors-harness.js';

/** The text of the elements describing an input (its help and its error). */
const descriptionOf = (page: Page, label: string) =>
  page.getByRole('combobox', { name: label }).evaluate((el) =>
    (el.getAttribute('aria-describedby') ?? '')
      .split(' ')
      .map((ref) => document.getElementById(ref)?.textContent ?? '')
      .join(' '),
  );

describe('monitor dependencies in the dashboard', () => {
  const d = monitorScreens();
  const api = (method: string, path: string, body?: object) =>
    fetch(`${d.warden.url}${path}`, {
      method,
      headers: { authorization: `Bearer ${d.warden.writeKey}`, 'content-type': 'application/json' },
      ...(body ? { body: JSON.stringify(body) } : {}),
    });
  const monitor = async (key: string) =>
    (await (await api('GET', `/api/v1/monitors/${key}`)).json()) as Record<string, unknown>;
  const heartbeat = async (key: string, name: string, extra: object = {}) => {
    const res = await api('POST', '/api/v1/monitors', {
      key,
      name,
      type: 'heartbeat',
      runOn: 'push',
      config: { graceSec: 600 },
      // Down at the first failed heartbeat.
      retries: 0,
      ...extra,
    });
    expect(res.status).toBe(201);
    return (await res.json()) as { id: string; pushToken: string };
  };
  const push = async (token: string, status: 'up' | 'down') =>
    expect((await fetch(`${d.warden.url}/api/push/${token}?status=${status}`)).status).toBe(200);
  let uplinkId: string;

  beforeAll(async () => {
    const uplink = await heartbeat('uplink', 'Uplink');
    const shop = await heartbeat('shop', 'Shop', { dependsOn: 'uplink' });
    await heartbeat('cache', 'Cache');
    uplinkId = uplink.id;
    await push(uplink.pushToken, 'down');
    await push(shop.pushToken, 'down');
    await until(
      'shop unreachable',
      async () => (await monitor('shop'))['unreachable'] === 'unreachable: Uplink is down',
      15_000,
    );
  }, scaled(30_000));

  it('marks a child behind a down parent as unreachable in the list and on its screen', {
    timeout: scaled(60_000),
  }, async () => {
    const { context, page } = await d.open('/monitors');
    try {
      const rows = page.getByRole('table', { name: 'Monitors' }).getByRole('row');
      const shop = rows.filter({ has: page.getByRole('link', { name: 'Shop', exact: true }) });
      await shop.waitFor({ timeout: 30_000 });
      expect(await shop.textContent()).toContain('unreachable: Uplink is down');
      const uplink = rows.filter({ has: page.getByRole('link', { name: 'Uplink', exact: true }) });
      expect(await uplink.textContent()).not.toContain('unreachable');
      expect(await seriousViolations(page)).toEqual([]);

      await shop.getByRole('link', { name: 'Shop', exact: true }).click();
      await page.getByRole('heading', { name: 'Shop', level: 1 }).waitFor({ timeout: 30_000 });
      expect(await page.getByText('unreachable: Uplink is down').isVisible()).toBe(true);
      const facts = (await page.locator('dl').first().textContent()) ?? '';
      expect(facts).toContain('Depends on');
      expect(facts).toContain('uplink');
    } finally {
      await context.close();
    }
  });

  it('saves a parent from the form and shows the refusal of a cycle under “Depends on”', {
    timeout: scaled(60_000),
  }, async () => {
    const { context, page } = await d.open(`/monitors/${uplinkId}/edit`);
    try {
      const dependsOn = page.getByRole('combobox', { name: 'Depends on' });
      await dependsOn.waitFor({ timeout: 30_000 });
      // Shop depends on Uplink: Uplink depending on Shop would be a cycle.
      await dependsOn.fill('shop');
      await page.getByRole('option', { name: 'Shop (shop)' }).click();
      await page.getByRole('button', { name: 'Save changes' }).click();
      await expect.poll(() => dependsOn.getAttribute('aria-invalid'), { timeout: 15_000 }).toBe('true');
      expect(await descriptionOf(page, 'Depends on')).toMatch(/cycle.*uplink → shop → uplink/);
      expect(page.url()).toMatch(/\/edit$/);
      expect((await monitor('uplink'))['dependsOn']).toBeNull();

      await dependsOn.fill('cache');
      await page.getByRole('option', { name: 'Cache (cache)' }).click();
      await page.getByRole('button', { name: 'Save changes' }).click();
      await page.waitForURL(new RegExp(`/app/monitors/${uplinkId}$`), { timeout: 30_000 });
      expect((await monitor('uplink'))['dependsOn']).toBe('cache');
    } finally {
      await context.close();
    }
  });
});
