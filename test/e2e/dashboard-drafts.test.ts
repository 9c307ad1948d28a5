// Draft incidents in real Chromium against a real Warden: the waiting drafts listed on the Incidents screen and the
// page's screen, one published with one click (then public on the page), one discarded, and the page's
// "Prepare draft incidents" setting saved from its settings form (with "Publish the uptime history" and "Say which
// parent made a component unreachable", beside it).
import { beforeAll, describe, expect, it } from 'vitest';
import { scaled } from '../time-scale.js';
import { until } from '../until.js';
import { seriousViolations } from './dashboard-harness.js';
import { monitorScreens } from './dashboard-monitors-harness.js';

describe('draft incidents in the dashboard', () => {
  const d = monitorScreens();
  const api = async (method: string, path: string, body?: object) =>
    fetch(`${d.warden.url}${path}`, {
      method,
      headers: { authorization: `Bearer ${d.warden.writeKey}`, 'content-type': 'application/json' },
      ...(body ? { body: JSON.stringify(body) } : {}),
    });
  const json = async (path: string) => (await (await api('GET', path)).json()) as Record<string, unknown>;

  /** A heartbeat monitor down now, shown by a component of page games, with a waiting draft of that outage. */
  async function downComponentWithDraft(key: string, name: string): Promise<void> {
    const created = await api('POST', '/api/v1/monitors', {
      key,
      name,
      type: 'heartbeat',
      runOn: 'push',
      retries: 0,
      config: { graceSec: 600 },
    });
    expect(created.status).toBe(201);
    const { pushToken } = (await created.json()) as { pushToken: string };
    expect((await fetch(`${d.warden.url}/api/push/${pushToken}?status=down`)).status).toBe(200);
    await until(`${key} down`, async () => (await json(`/api/v1/monitors/${key}`))['state'] === 'down', 15_000);
    const stateSince = (await json(`/api/v1/monitors/${key}`))['stateSince'] as number;
    expect((await api('POST', '/api/v1/pages/games/components', { key, name, monitor: key })).status).toBe(201);
    // Drafts come from outages longer than the page's afterMin: seeded here for the outage just begun, which the
    // server's scan keeps while the monitor stays down in it.
    const store = d.warden.opened.store;
    const page = await store.pages.findBySlug('games');
    const component = (await store.components.list(page?.id as string)).find((c) => c.key === key);
    await store.incidentDrafts.insert(
      {
        id: `idr_dash_${key}`,
        organizationId: d.warden.organizationId,
        pageId: page?.id as string,
        componentId: component?.id as string,
        downSince: stateSince,
        title: `${name} is down`,
        message: `${name} is not responding; we are looking into it.`,
        status: 'draft',
        discardedReason: null,
        incidentId: null,
      },
      Date.now(),
    );
  }

  beforeAll(async () => {
    expect((await api('POST', '/api/v1/pages', { slug: 'games', title: 'Games' })).status).toBe(201);
    await downComponentWithDraft('hub', 'Hub');
    await downComponentWithDraft('forum', 'Forum');
  }, scaled(30_000));

  it('lists every page’s drafts on the Incidents screen and publishes one with one click', {
    timeout: scaled(60_000),
  }, async () => {
    const { context, page } = await d.open('/incidents');
    try {
      const drafts = page.getByRole('region', { name: 'Draft incidents' });
      const hub = drafts.getByRole('article', { name: 'Draft: Hub is down' });
      await hub.waitFor({ timeout: 30_000 });
      expect(await hub.textContent()).toContain('Games · Component hub down since');
      expect(await drafts.getByRole('article').count()).toBe(2);
      // Not public while a draft.
      expect(JSON.stringify(await json('/api/v1/status/games'))).not.toContain('Hub is down');
      expect(await seriousViolations(page)).toEqual([]);

      await hub.getByRole('button', { name: 'Publish Hub is down' }).click();
      await page
        .getByRole('region', { name: 'Open' })
        .getByRole('article', { name: 'Hub is down' })
        .waitFor({ timeout: 30_000 });
      await hub.waitFor({ state: 'detached', timeout: 15_000 });
      const status = (await json('/api/v1/status/games')) as { activeIncidents: { title: string }[] };
      expect(status.activeIncidents.map((i) => i.title)).toContain('Hub is down');
    } finally {
      await context.close();
    }
  });

  it('discards a draft from the page’s screen and turns on drafts in the page’s settings', {
    timeout: scaled(60_000),
  }, async () => {
    const { context, page } = await d.open('/pages/games');
    try {
      const section = page.getByRole('region', { name: 'Draft incidents' });
      const forum = section.getByRole('article', { name: 'Draft: Forum is down' });
      await forum.waitFor({ timeout: 30_000 });
      expect(await section.getByRole('article').count()).toBe(1);
      await forum.getByRole('button', { name: 'Discard Forum is down' }).click();
      await page.getByRole('dialog').getByRole('button', { name: 'Discard draft' }).click();
      await forum.waitFor({ state: 'detached', timeout: 15_000 });
      await section.getByText('Off: turn on "Prepare draft incidents"').waitFor();
      const discarded = (await json('/api/v1/pages/games/incident-drafts?status=discarded')) as {
        drafts: { id: string; discardedReason: string }[];
      };
      expect(discarded.drafts).toEqual([
        expect.objectContaining({ id: 'idr_dash_forum', discardedReason: 'operator' }),
      ]);

      const settings = page.getByRole('form', { name: 'Page settings' });
      await settings.getByRole('switch', { name: /Prepare draft incidents/ }).check();
      await settings.getByLabel('After (minutes down)').fill('25');
      await settings.getByRole('radio', { name: 'Publish it at once and tell subscribers' }).check();
      await settings.getByRole('switch', { name: /Publish the uptime history/ }).check();
      await settings.getByRole('switch', { name: /Say which parent made a component unreachable/ }).check();
      expect(await seriousViolations(page)).toEqual([]);
      await settings.getByRole('button', { name: 'Save settings' }).click();
      await expect
        .poll(async () => (await json('/api/v1/pages/games'))['draftIncidents'], { timeout: 15_000 })
        .toEqual({ afterMin: 25, publish: 'auto' });
      expect((await json('/api/v1/pages/games'))['publishUptimeHistory']).toBe(true);
      expect((await json('/api/v1/pages/games'))['showUnreachable']).toBe(true);
      await section.getByText('None waiting. A component down for 25 min gets one, published at once.').waitFor();
    } finally {
      await context.close();
    }
  });
});
