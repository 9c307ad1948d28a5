// Store contract, the monitor activity cluster mode polls while Redis is away: state and latest result by id.
import { beforeEach, expect, it } from 'vitest';
import { addMonitor, addOrganization, describeStore, NOW, ORG, stateRow } from './store-fixtures.js';

describeStore('monitor activity', (store) => {
  beforeEach(async () => {
    await addOrganization(store());
  });

  it('gives the state and latest result of the monitors asked for, and nothing of unknown ids', async () => {
    await addMonitor(store(), 'fresh');
    await addMonitor(store(), 'checked');
    await addMonitor(store(), 'other');
    const result = JSON.stringify({ checkedAt: NOW + 5, ok: false, latencyMs: null, message: 'refused', error: 'refused', data: null, source: 'edge' });
    await store().checks.write([], [stateRow('mon_checked', { state: 'down', lastCheckAt: NOW + 5, lastResult: result })]);
    const rows = await store().monitors.listActivity(['mon_fresh', 'mon_checked', 'mon_unknown']);
    expect([...rows].sort((a, b) => a.id.localeCompare(b.id))).toEqual([
      { id: 'mon_checked', organizationId: ORG.id, state: 'down', lastCheckAt: NOW + 5, lastResult: result },
      { id: 'mon_fresh', organizationId: ORG.id, state: 'unknown', lastCheckAt: null, lastResult: null },
    ]);
    expect(await store().monitors.listActivity([])).toEqual([]);
  });

  it('answers for more ids than one statement may hold', async () => {
    for (let i = 0; i < 3; i++) await addMonitor(store(), `m${i}`);
    const ids = [...Array.from({ length: 1200 }, (_, i) => `mon_missing${i}`), 'mon_m0', 'mon_m1', 'mon_m2'];
    expect((await store().monitors.listActivity(ids)).map((row) => row.id).sort()).toEqual(['mon_m0', 'mon_m1', 'mon_m2']);
  });
});
