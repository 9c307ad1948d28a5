// Store contract, the dashboard's monitor list: tags, filters, the orders and keyset pages, the same on every dialect.
import { beforeEach, expect, it } from 'vitest';
import type { MonitorQuery, Store } from '../../src/store/index.js';
import {
  addComponent,
  addMonitor,
  addOrganization,
  addPage,
  addRelay,
  describeStore,
  NOW,
  ORG,
  OTHER_ORG,
  stateRow,
} from './store-fixtures.js';

const latest = (latencyMs: number | null) =>
  JSON.stringify({
    checkedAt: NOW,
    ok: latencyMs !== null,
    latencyMs,
    message: null,
    error: null,
    data: null,
    source: 'edge',
  });

async function keys(store: Store, query: Partial<MonitorQuery> = {}): Promise<string[]> {
  const { monitors } = await store.monitors.query({ organizationId: ORG.id, sort: 'name', limit: 100, ...query });
  return monitors.map((m) => m.monitor.key);
}

describeStore('the monitor list', (store) => {
  beforeEach(async () => {
    await addOrganization(store());
    await addOrganization(store(), OTHER_ORG);
    const relay = await addRelay(store(), 'cellar');
    await addMonitor(store(), 'alpha', { name: 'Alpha Lobby', tags: ['eu', 'mc.java'] });
    await addMonitor(store(), 'bravo', { name: 'bravo survival', type: 'http', tags: ['us'] });
    await addMonitor(store(), 'charlie', { name: 'Charlie', runOn: 'relay', relayId: relay, tags: ['eu-west'] });
    await addMonitor(store(), 'delta', { name: 'Delta_50%', enabled: false });
    await addMonitor(store(), 'other', { name: 'Alpha elsewhere', organizationId: OTHER_ORG.id, tags: ['eu'] });
    await store().checks.write(
      [],
      [
        stateRow('mon_alpha', { state: 'up', stateSince: NOW + 3, lastResult: latest(40) }),
        stateRow('mon_bravo', { state: 'down', stateSince: NOW + 1, lastResult: latest(null) }),
        stateRow('mon_charlie', { state: 'up', stateSince: NOW + 2, lastResult: latest(900) }),
        stateRow('mon_delta', { state: 'down', stateSince: NOW + 4, lastResult: latest(5) }),
      ],
    );
  });

  it('stores tags and reads them back, [] when none', async () => {
    expect((await store().monitors.findById('mon_alpha'))?.tags).toEqual(['eu', 'mc.java']);
    expect((await store().monitors.findById('mon_delta'))?.tags).toEqual([]);
  });

  it("lists one organization's monitors by name, case-insensitively, counting them all", async () => {
    const { monitors, total } = await store().monitors.query({ organizationId: ORG.id, sort: 'name', limit: 100 });
    expect(monitors.map((m) => m.monitor.key)).toEqual(['alpha', 'bravo', 'charlie', 'delta']);
    expect(total).toBe(4);
    expect(monitors[0]?.monitor).toMatchObject({ id: 'mon_alpha', name: 'Alpha Lobby', tags: ['eu', 'mc.java'] });
  });

  it('searches name and key without case, wildcards taken literally', async () => {
    expect(await keys(store(), { search: 'ALPHA' })).toEqual(['alpha']);
    expect(await keys(store(), { search: 'surv' })).toEqual(['bravo']);
    expect(await keys(store(), { search: 'arl' })).toEqual(['charlie']);
    expect(await keys(store(), { search: '_50%' })).toEqual(['delta']);
    expect(await keys(store(), { search: '%' })).toEqual(['delta']);
    expect(await keys(store(), { search: 'nothing' })).toEqual([]);
  });

  it('filters by state (paused: the disabled ones, whatever their last state), type, relay and page', async () => {
    expect(await keys(store(), { state: 'down' })).toEqual(['bravo']);
    expect(await keys(store(), { state: 'up' })).toEqual(['alpha', 'charlie']);
    expect(await keys(store(), { state: 'paused' })).toEqual(['delta']);
    expect(await keys(store(), { type: 'http' })).toEqual(['bravo']);
    expect(await keys(store(), { relayId: 'rly_cellar' })).toEqual(['charlie']);
    const page = await addPage(store(), 'lobby');
    await addComponent(store(), page, 'a', { monitorId: 'mon_alpha' });
    await addComponent(store(), page, 'text');
    await addComponent(store(), page, 'd', { monitorId: 'mon_delta' });
    expect(await keys(store(), { pageId: page })).toEqual(['alpha', 'delta']);
    expect(await keys(store(), { pageId: page, state: 'paused' })).toEqual(['delta']);
  });

  it('matches a whole tag only', async () => {
    expect(await keys(store(), { tag: 'eu' })).toEqual(['alpha']);
    expect(await keys(store(), { tag: 'eu-west' })).toEqual(['charlie']);
    expect(await keys(store(), { tag: 'mc.java' })).toEqual(['alpha']);
    expect(await keys(store(), { tag: 'mc' })).toEqual([]);
  });

  it('sorts by state, by latency (slowest first, none last) and by the latest state change', async () => {
    expect(await keys(store(), { sort: 'state' })).toEqual(['bravo', 'alpha', 'charlie', 'delta']);
    expect(await keys(store(), { sort: 'latency' })).toEqual(['charlie', 'alpha', 'delta', 'bravo']);
    expect(await keys(store(), { sort: 'recent' })).toEqual(['delta', 'alpha', 'charlie', 'bravo']);
  });

  for (const sort of ['name', 'state', 'latency', 'recent'] as const)
    it(`pages through the ${sort} order from the position of each page's last monitor`, async () => {
      const all = await keys(store(), { sort });
      const seen: string[] = [];
      let after: MonitorQuery['after'];
      for (;;) {
        const { monitors, total } = await store().monitors.query({ organizationId: ORG.id, sort, limit: 3, after });
        expect(total).toBe(4);
        seen.push(...monitors.map((m) => m.monitor.key));
        if (monitors.length < 3) break;
        after = monitors.at(-1)?.position;
      }
      expect(seen).toEqual(all);
    });

  it('tells which ids are the organization’s', async () => {
    expect((await store().monitors.idsOf(ORG.id, ['mon_alpha', 'mon_other', 'mon_nope'])).sort()).toEqual([
      'mon_alpha',
    ]);
    expect(await store().monitors.idsOf(ORG.id, [])).toEqual([]);
  });
});
