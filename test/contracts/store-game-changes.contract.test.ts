// Store contract, game changes: the recent version, map and wipe changes of monitors, newest first, kept short.
import { expect, it } from 'vitest';
import { GAME_CHANGE_LIMITS, type GameChange } from '../../src/domain/player-alerts.js';
import { addMonitor, addOrganization, describeStore, NOW, ORG } from './store-fixtures.js';

const MIN = 60_000;

function change(monitorId: string, n: number, overrides: Partial<GameChange> = {}): GameChange {
  return {
    id: `evt_${monitorId}_${n}`,
    organizationId: ORG.id,
    monitorId,
    field: 'map',
    from: `map_${n - 1}`,
    to: `map_${n}`,
    at: NOW + n * MIN,
    ...overrides,
  };
}

describeStore('game changes', (store) => {
  it('gives the changes of the monitors asked for since a time, newest first, at most the limit', async () => {
    await addOrganization(store());
    const a = await addMonitor(store(), 'a');
    const b = await addMonitor(store(), 'b');
    const c = await addMonitor(store(), 'c');
    await store().gameChanges.record([change(a, 1), change(b, 2, { field: 'wipe' }), change(a, 3), change(c, 4)]);
    const recent = await store().gameChanges.recent([a, b], NOW + 2 * MIN, 10);
    expect(recent.map((r) => r.id)).toEqual([`evt_${a}_3`, `evt_${b}_2`]);
    expect(recent[1]).toEqual(change(b, 2, { field: 'wipe' }));
    expect((await store().gameChanges.recent([a, b, c], 0, 2)).map((r) => r.id)).toEqual([`evt_${c}_4`, `evt_${a}_3`]);
    expect(await store().gameChanges.recent([], 0, 10)).toEqual([]);
  });

  it('stores a change recorded twice once (a retried commit)', async () => {
    await addOrganization(store());
    const a = await addMonitor(store(), 'a');
    await store().gameChanges.record([change(a, 1)]);
    await store().gameChanges.record([change(a, 1, { to: 'other' })]);
    expect(await store().gameChanges.recent([a], 0, 10)).toEqual([change(a, 1)]);
  });

  it('keeps the newest changes of each monitor only, and prunes by age', async () => {
    await addOrganization(store());
    const a = await addMonitor(store(), 'a');
    const b = await addMonitor(store(), 'b');
    const kept = GAME_CHANGE_LIMITS.keptPerMonitor;
    await store().gameChanges.record([change(b, 1)]);
    for (let n = 1; n <= kept + 3; n++) await store().gameChanges.record([change(a, n)]);
    const left = await store().gameChanges.recent([a], 0, 100);
    expect(left).toHaveLength(kept);
    expect(left.at(-1)?.id).toBe(`evt_${a}_4`);
    expect(await store().gameChanges.recent([b], 0, 100)).toHaveLength(1);
    expect(await store().gameChanges.prune(NOW + 10 * MIN)).toBe(1 + 6);
    expect((await store().gameChanges.recent([a, b], 0, 100)).at(-1)?.id).toBe(`evt_${a}_10`);
  });

  it('goes with its monitor', async () => {
    await addOrganization(store());
    const a = await addMonitor(store(), 'a');
    await store().gameChanges.record([change(a, 1)]);
    await store().monitors.delete(a);
    expect(await store().gameChanges.recent([a], 0, 10)).toEqual([]);
  });
});
