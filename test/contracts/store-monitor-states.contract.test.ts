// Store contract, monitor states: where each monitor stands (ingest's read, cluster mode's activity, the down list) and
// its state changes (its history): appended, read newest first by cursor, pruned, the same on every dialect.
import { beforeEach, expect, it } from 'vitest';
import type { MonitorStateChange } from '../../src/domain/monitor.js';
import { addMonitor, addOrganization, describeStore, NOW, ORG, OTHER_ORG, stateRow } from './store-fixtures.js';

const S = 1000;

const byId = <T extends { id: string }>(rows: T[]) => [...rows].sort((a, b) => a.id.localeCompare(b.id));

const change = (
  id: string,
  at: number,
  from: MonitorStateChange['from'],
  to: MonitorStateChange['to'],
  monitorId = 'mon_a',
): MonitorStateChange => ({
  id,
  monitorId,
  at,
  from,
  to,
  message: `${from} to ${to}`,
});

describeStore('monitor states', (store) => {
  beforeEach(async () => {
    await addOrganization(store());
  });

  it('gives ingest the state and state settings of these monitors', async () => {
    await addMonitor(store(), 'a', { retries: 3, degradedLatencyMs: 400 });
    await addMonitor(store(), 'b');
    const lastResult = JSON.stringify({
      checkedAt: NOW,
      ok: false,
      latencyMs: null,
      message: null,
      error: 'refused',
      data: null,
      source: 'edge',
    });
    const state = stateRow('mon_a', {
      retries: 3,
      degradedLatencyMs: 400,
      state: 'down',
      stateSince: NOW - 5000,
      failureStreak: 4,
      lastResult,
      // What the player alerts' conditions were at: written with the state.
      playerAlertsState: '{"held":{"full":{"since":1,"alerted":true}},"last":{}}',
    });
    await store().checks.write([], [state]);
    expect(byId(await store().monitorStates.find(['mon_a', 'mon_b', 'mon_unknown']))).toEqual([
      state,
      {
        id: 'mon_b',
        organizationId: ORG.id,
        retries: 1,
        degradedLatencyMs: null,
        state: 'unknown',
        stateSince: NOW,
        failureStreak: 0,
        lastCheckAt: null,
        lastResult: null,
        playerAlerts: null,
        playerAlertsState: null,
      },
    ]);
    expect(await store().monitorStates.find([])).toEqual([]);
  });

  it('gives the state and latest result of the monitors asked for, and nothing of unknown ids', async () => {
    await addMonitor(store(), 'fresh');
    await addMonitor(store(), 'checked');
    await addMonitor(store(), 'other');
    const result = JSON.stringify({
      checkedAt: NOW + 5,
      ok: false,
      latencyMs: null,
      message: 'refused',
      error: 'refused',
      data: null,
      source: 'edge',
    });
    await store().checks.write(
      [],
      [stateRow('mon_checked', { state: 'down', lastCheckAt: NOW + 5, lastResult: result })],
    );
    const rows = await store().monitorStates.listActivity(['mon_fresh', 'mon_checked', 'mon_unknown']);
    expect(byId(rows)).toEqual([
      { id: 'mon_checked', organizationId: ORG.id, state: 'down', lastCheckAt: NOW + 5, lastResult: result },
      { id: 'mon_fresh', organizationId: ORG.id, state: 'unknown', lastCheckAt: null, lastResult: null },
    ]);
    expect(await store().monitorStates.listActivity([])).toEqual([]);
  });

  it('answers for more ids than one statement may hold', async () => {
    for (let i = 0; i < 3; i++) await addMonitor(store(), `m${i}`);
    const ids = [...Array.from({ length: 1200 }, (_, i) => `mon_missing${i}`), 'mon_m0', 'mon_m1', 'mon_m2'];
    expect((await store().monitorStates.listActivity(ids)).map((row) => row.id).sort()).toEqual([
      'mon_m0',
      'mon_m1',
      'mon_m2',
    ]);
    expect((await store().monitorStates.find(ids)).map((row) => row.id)).toEqual(['mon_m0', 'mon_m1', 'mon_m2']);
  });

  it("lists an organization's enabled monitors that are down now, by key", async () => {
    await addOrganization(store(), OTHER_ORG);
    for (const key of ['b-down', 'a-down', 'up', 'paused', 'never-checked'])
      await addMonitor(store(), key, { enabled: key !== 'paused' });
    await addMonitor(store(), 'elsewhere', { organizationId: OTHER_ORG.id });
    const down = { state: 'down', lastCheckAt: NOW } as const;
    await store().checks.write(
      [],
      [
        stateRow('mon_b-down', down),
        stateRow('mon_a-down', down),
        stateRow('mon_paused', down),
        stateRow('mon_elsewhere', { ...down, organizationId: OTHER_ORG.id }),
        stateRow('mon_up', { state: 'up', lastCheckAt: NOW }),
      ],
    );
    const listed = await store().monitorStates.listDown(ORG.id);
    expect(listed.map((m) => m.key)).toEqual(['a-down', 'b-down']);
    expect(listed[0]).toEqual(await store().monitors.findById('mon_a-down'));
    expect(await store().monitorStates.listDown('org_unknown')).toEqual([]);
  });
});

describeStore('monitor state changes', (store) => {
  beforeEach(async () => {
    await addOrganization(store());
    await addMonitor(store(), 'a');
    await addMonitor(store(), 'b');
  });

  it('lists a monitor’s changes newest first, paging by (time, id) without losing ties', async () => {
    await store().monitorStates.appendChanges([
      change('stc_1', NOW, 'unknown', 'up'),
      change('stc_2', NOW + 5 * S, 'up', 'down'),
      // Two at the same millisecond: the id orders them, so a page boundary between them loses neither.
      change('stc_3', NOW + 9 * S, 'down', 'up'),
      change('stc_4', NOW + 9 * S, 'up', 'paused'),
      change('stc_x', NOW + 7 * S, 'unknown', 'down', 'mon_b'),
    ]);
    const first = await store().monitorStates.listChanges('mon_a', { limit: 3 });
    expect(first.map((c) => c.id)).toEqual(['stc_4', 'stc_3', 'stc_2']);
    expect(first[0]).toEqual({
      id: 'stc_4',
      monitorId: 'mon_a',
      at: NOW + 9 * S,
      from: 'up',
      to: 'paused',
      message: 'up to paused',
    });
    const boundary = { at: NOW + 9 * S, id: 'stc_4' };
    expect((await store().monitorStates.listChanges('mon_a', { limit: 1, before: boundary })).map((c) => c.id)).toEqual(
      ['stc_3'],
    );
    const last = first.at(-1) as MonitorStateChange;
    expect(
      (await store().monitorStates.listChanges('mon_a', { limit: 3, before: { at: last.at, id: last.id } })).map(
        (c) => c.id,
      ),
    ).toEqual(['stc_1']);
    expect((await store().monitorStates.listChanges('mon_b', { limit: 10 })).map((c) => c.id)).toEqual(['stc_x']);
  });

  it('appends many in one call (more than one statement holds) and keeps a null message', async () => {
    const many = Array.from({ length: 1201 }, (_, i) => ({
      ...change(`stc_${String(i).padStart(5, '0')}`, NOW + i, 'up', 'down'),
      message: null,
    }));
    await store().monitorStates.appendChanges(many);
    const newest = await store().monitorStates.listChanges('mon_a', { limit: 2 });
    expect(newest).toEqual([many[1200], many[1199]]);
  });

  it('prunes one monitor’s changes before a time, and deleting the monitor takes its changes', async () => {
    await store().monitorStates.appendChanges([
      change('stc_1', NOW, 'unknown', 'up'),
      change('stc_2', NOW + 60 * S, 'up', 'down'),
      change('stc_x', NOW, 'unknown', 'up', 'mon_b'),
    ]);
    expect(await store().monitorStates.pruneChanges(['mon_a'], NOW + 60 * S)).toBe(1);
    expect((await store().monitorStates.listChanges('mon_a', { limit: 10 })).map((c) => c.id)).toEqual(['stc_2']);
    expect(await store().monitorStates.listChanges('mon_b', { limit: 10 })).toHaveLength(1);
    await store().monitors.delete('mon_a');
    expect(await store().monitorStates.listChanges('mon_a', { limit: 10 })).toEqual([]);
  });
});
