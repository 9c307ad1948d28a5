// Store contract, the schedule: which enabled monitors the edge scheduler, the relays and the watchdog each see.
import { beforeEach, expect, it } from 'vitest';
import { DAY_MS } from '../../src/domain/check.js';
import type { Store } from '../../src/store/index.js';
import {
  addMonitor,
  addOrganization,
  addRelay,
  describeStore,
  type MonitorFixture,
  monitorSpec,
  NOW,
  ORG,
  stateRow,
} from './store-fixtures.js';

/** A monitor whose last result (at `lastCheckAt`) left it in `state`, as ingest would. */
async function addChecked(
  store: Store,
  key: string,
  fixture: MonitorFixture & { state?: 'up' | 'down' | 'unknown'; lastCheckAt: number },
) {
  const { state = 'up', lastCheckAt, ...monitor } = fixture;
  const id = await addMonitor(store, key, monitor);
  await store.checks.write([], [stateRow(id, { state, lastCheckAt })]);
  return id;
}

const byId = <T extends { id: string }>(rows: T[]) => [...rows].sort((a, b) => a.id.localeCompare(b.id));

describeStore('schedule', (store) => {
  let relayA = '';
  let relayB = '';
  beforeEach(async () => {
    await addOrganization(store());
    relayA = await addRelay(store(), 'a');
    relayB = await addRelay(store(), 'b');
  });

  it('lists the enabled monitors a relay runs, by id', async () => {
    await addMonitor(store(), 'c', { runOn: 'relay', relayId: relayA });
    await addMonitor(store(), 'a', { runOn: 'relay', relayId: relayA });
    await addMonitor(store(), 'b', { runOn: 'relay', relayId: relayA });
    await addMonitor(store(), 'off', { runOn: 'relay', relayId: relayA, enabled: false });
    await addMonitor(store(), 'x', { runOn: 'relay', relayId: relayB });
    const running = await store().schedule.listRunningOnRelay(relayA);
    expect(running.map((m) => m.id)).toEqual(['mon_a', 'mon_b', 'mon_c']);
    expect(running[0]).toEqual(await store().monitors.findById('mon_a'));
  });

  it('gives the ids of the enabled monitors a relay runs: the only ones it may submit results for', async () => {
    await addMonitor(store(), 'a', { runOn: 'relay', relayId: relayA });
    await addMonitor(store(), 'off', { runOn: 'relay', relayId: relayA, enabled: false });
    await addMonitor(store(), 'x', { runOn: 'relay', relayId: relayB });
    await addMonitor(store(), 'edge');
    expect(await store().schedule.idsRunningOnRelay(relayA)).toEqual(new Set(['mon_a']));
    expect(await store().schedule.idsRunningOnRelay('rly_unknown')).toEqual(new Set());
  });

  it('gives the id and version of the enabled monitors that run at one place', async () => {
    await addMonitor(store(), 'a', {}, NOW);
    await addMonitor(store(), 'b', {}, NOW);
    await addMonitor(store(), 'off', { enabled: false });
    await addMonitor(store(), 'r', { runOn: 'relay', relayId: relayA });
    await store().monitors.updateSpec('mon_b', monitorSpec('b', { intervalSec: 30 }), 'api', NOW + 5000);
    expect(byId(await store().schedule.listVersions('edge'))).toEqual([
      { id: 'mon_a', updatedAt: NOW },
      { id: 'mon_b', updatedAt: NOW + 5000 },
    ]);
    expect(await store().schedule.listVersions('relay')).toEqual([{ id: 'mon_r', updatedAt: NOW }]);
    expect(await store().schedule.listVersions('push')).toEqual([]);
  });

  it('gives the scheduler the enabled monitors among these ids that run at its place', async () => {
    const config = { url: 'https://example.com/health', expect: [200, 204] };
    await addMonitor(store(), 'a', { type: 'http', config, intervalSec: 30, timeoutMs: 2000 });
    await addMonitor(store(), 'b');
    await addMonitor(store(), 'off', { enabled: false });
    await addMonitor(store(), 'r', { runOn: 'relay', relayId: relayA });
    const scheduled = await store().schedule.listScheduled('edge', ['mon_a', 'mon_off', 'mon_r', 'mon_unknown']);
    expect(scheduled).toEqual([
      {
        id: 'mon_a',
        organizationId: ORG.id,
        key: 'a',
        type: 'http',
        config,
        intervalSec: 30,
        timeoutMs: 2000,
        updatedAt: NOW,
        lastCheckAt: null,
      },
    ]);
    expect(await store().schedule.listScheduled('edge', [])).toEqual([]);
  });

  it('finds the enabled edge and relay monitors silent for more than the given intervals, unless already unknown', async () => {
    const now = NOW + 10 * 60_000;
    const silent = await addChecked(store(), 'silent', { lastCheckAt: NOW });
    const relayed = await addChecked(store(), 'relayed', {
      runOn: 'relay',
      relayId: relayA,
      state: 'down',
      lastCheckAt: NOW,
    });
    await addChecked(store(), 'recent', { lastCheckAt: now - 60_000 });
    await addChecked(store(), 'just-in-time', { lastCheckAt: now - 3 * 60_000 });
    await addChecked(store(), 'slow', { intervalSec: 600, lastCheckAt: NOW });
    await addChecked(store(), 'unknown', { state: 'unknown', lastCheckAt: NOW });
    await addChecked(store(), 'off', { enabled: false, lastCheckAt: NOW });
    await addChecked(store(), 'pushed', { type: 'heartbeat', runOn: 'push', lastCheckAt: NOW });
    await addMonitor(store(), 'never-checked');
    expect(byId(await store().schedule.listSilent(now, 3))).toEqual([
      { id: relayed, organizationId: ORG.id, state: 'down', lastCheckAt: NOW },
      { id: silent, organizationId: ORG.id, state: 'up', lastCheckAt: NOW },
    ]);
  });

  it('counts silence past 2^31 milliseconds (a daily monitor, thirty intervals)', async () => {
    const silent = await addChecked(store(), 'daily', { intervalSec: 86_400, lastCheckAt: NOW - 31 * DAY_MS });
    await addChecked(store(), 'daily-recent', { intervalSec: 86_400, lastCheckAt: NOW - 29 * DAY_MS });
    expect((await store().schedule.listSilent(NOW, 30)).map((m) => m.id)).toEqual([silent]);
  });

  it('takes a fractional number of intervals', async () => {
    const silent = await addChecked(store(), 'silent', { intervalSec: 60, lastCheckAt: NOW - 91_000 });
    await addChecked(store(), 'recent', { intervalSec: 60, lastCheckAt: NOW - 89_000 });
    expect((await store().schedule.listSilent(NOW, 1.5)).map((m) => m.id)).toEqual([silent]);
  });

  it('lists the enabled monitors of a relay that are not unknown yet', async () => {
    const known = await addChecked(store(), 'known', { runOn: 'relay', relayId: relayA, lastCheckAt: NOW });
    await addMonitor(store(), 'unknown', { runOn: 'relay', relayId: relayA });
    await addChecked(store(), 'off', {
      runOn: 'relay',
      relayId: relayA,
      enabled: false,
      state: 'down',
      lastCheckAt: NOW,
    });
    await addChecked(store(), 'elsewhere', { runOn: 'relay', relayId: relayB, lastCheckAt: NOW });
    expect(await store().schedule.listKnownOnRelay(relayA)).toEqual([
      { id: known, organizationId: ORG.id, state: 'up', lastCheckAt: NOW },
    ]);
  });

  it('lists the enabled push monitors with their config, last ping (null before the first) and creation', async () => {
    const config = { graceSec: 120 };
    const pinged = await addChecked(store(), 'pinged', { type: 'heartbeat', runOn: 'push', config, lastCheckAt: NOW });
    const waiting = await addMonitor(store(), 'waiting', { type: 'heartbeat', runOn: 'push', config }, NOW - 5000);
    await addChecked(store(), 'off', { type: 'heartbeat', runOn: 'push', config, enabled: false, lastCheckAt: NOW });
    await addChecked(store(), 'edge', { lastCheckAt: NOW });
    const listed = await store().schedule.listPushed();
    expect(listed.sort((a, b) => a.id.localeCompare(b.id))).toEqual(
      [
        { id: pinged, config, lastCheckAt: NOW, createdAt: expect.any(Number) },
        { id: waiting, config, lastCheckAt: null, createdAt: NOW - 5000 },
      ].sort((a, b) => a.id.localeCompare(b.id)),
    );
  });

  it('tells when monitors were last resumed: their latest change out of paused', async () => {
    const a = await addMonitor(store(), 'a');
    const b = await addMonitor(store(), 'b');
    await addMonitor(store(), 'c');
    await store().monitorStates.appendChanges([
      { id: 'stc_1', monitorId: a, at: NOW, from: 'up', to: 'paused', message: 'paused' },
      { id: 'stc_2', monitorId: a, at: NOW + 1000, from: 'paused', to: 'up', message: 'resumed' },
      { id: 'stc_3', monitorId: a, at: NOW + 2000, from: 'up', to: 'paused', message: 'paused' },
      { id: 'stc_4', monitorId: a, at: NOW + 3000, from: 'paused', to: 'up', message: 'resumed' },
      { id: 'stc_5', monitorId: a, at: NOW + 4000, from: 'up', to: 'down', message: 'check failed' },
      { id: 'stc_6', monitorId: b, at: NOW + 500, from: 'unknown', to: 'up', message: null },
    ]);
    expect(await store().schedule.lastResumedAt([a, b, 'mon_none'])).toEqual(new Map([[a, NOW + 3000]]));
    expect(await store().schedule.lastResumedAt([])).toEqual(new Map());
  });
});
