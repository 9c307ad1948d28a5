// Store contract, a monitor's state changes (its state history): appended, read newest first by cursor, pruned, the same on every dialect.
import { beforeEach, expect, it } from 'vitest';
import type { MonitorStateChange } from '../../src/domain/monitor.js';
import { addMonitor, addOrganization, describeStore, NOW } from './store-fixtures.js';

const S = 1000;

const change = (id: string, at: number, from: MonitorStateChange['from'], to: MonitorStateChange['to'], monitorId = 'mon_a'): MonitorStateChange => ({
  id,
  monitorId,
  at,
  from,
  to,
  message: `${from} to ${to}`,
});

describeStore('monitor state changes', (store) => {
  beforeEach(async () => {
    await addOrganization(store());
    await addMonitor(store(), 'a');
    await addMonitor(store(), 'b');
  });

  it('lists a monitor’s changes newest first, paging by (time, id) without losing ties', async () => {
    await store().monitors.appendStateChanges([
      change('stc_1', NOW, 'unknown', 'up'),
      change('stc_2', NOW + 5 * S, 'up', 'down'),
      // Two at the same millisecond: the id orders them, so a page boundary between them loses neither.
      change('stc_3', NOW + 9 * S, 'down', 'up'),
      change('stc_4', NOW + 9 * S, 'up', 'paused'),
      change('stc_x', NOW + 7 * S, 'unknown', 'down', 'mon_b'),
    ]);
    const first = await store().monitors.listStateChanges('mon_a', { limit: 3 });
    expect(first.map((c) => c.id)).toEqual(['stc_4', 'stc_3', 'stc_2']);
    expect(first[0]).toEqual({ id: 'stc_4', monitorId: 'mon_a', at: NOW + 9 * S, from: 'up', to: 'paused', message: 'up to paused' });
    const boundary = { at: NOW + 9 * S, id: 'stc_4' };
    expect((await store().monitors.listStateChanges('mon_a', { limit: 1, before: boundary })).map((c) => c.id)).toEqual(['stc_3']);
    const last = first.at(-1) as MonitorStateChange;
    expect((await store().monitors.listStateChanges('mon_a', { limit: 3, before: { at: last.at, id: last.id } })).map((c) => c.id)).toEqual(['stc_1']);
    expect((await store().monitors.listStateChanges('mon_b', { limit: 10 })).map((c) => c.id)).toEqual(['stc_x']);
  });

  it('appends many in one call (more than one statement holds) and keeps a null message', async () => {
    const many = Array.from({ length: 1201 }, (_, i) => ({ ...change(`stc_${String(i).padStart(5, '0')}`, NOW + i, 'up', 'down'), message: null }));
    await store().monitors.appendStateChanges(many);
    const newest = await store().monitors.listStateChanges('mon_a', { limit: 2 });
    expect(newest).toEqual([many[1200], many[1199]]);
  });

  it('prunes one monitor’s changes before a time, and deleting the monitor takes its changes', async () => {
    await store().monitors.appendStateChanges([change('stc_1', NOW, 'unknown', 'up'), change('stc_2', NOW + 60 * S, 'up', 'down'), change('stc_x', NOW, 'unknown', 'up', 'mon_b')]);
    expect(await store().monitors.pruneStateChanges('mon_a', NOW + 60 * S)).toBe(1);
    expect((await store().monitors.listStateChanges('mon_a', { limit: 10 })).map((c) => c.id)).toEqual(['stc_2']);
    expect(await store().monitors.listStateChanges('mon_b', { limit: 10 })).toHaveLength(1);
    await store().monitors.delete('mon_a');
    expect(await store().monitors.listStateChanges('mon_a', { limit: 10 })).toEqual([]);
  });
});
