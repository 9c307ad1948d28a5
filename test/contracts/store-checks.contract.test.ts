// Store contract, writing checks: the rows, their hourly and daily buckets and the monitors' state, as one batch
// (result ids and transactions: store-check-batches.contract.test.ts).
import { beforeEach, expect, it } from 'vitest';
import { DAY_MS, HOUR_MS, type StoredCheck } from '../../src/domain/check.js';
import { addMonitor, addOrganization, check, describeStore, NOW, stateRow } from './store-fixtures.js';

const MINUTE_MS = 60_000;

/** A latency histogram of 16 bins with these counts (bin → checks), the others 0. */
function bins(counts: Record<number, number>): number[] {
  return Array.from({ length: 16 }, (_, bin) => counts[bin] ?? 0);
}

describeStore('check writes', (store) => {
  beforeEach(async () => {
    await addOrganization(store());
    await addMonitor(store(), 'a');
    await addMonitor(store(), 'b');
  });

  it('stores each check as written, read back newest first', async () => {
    const data = { players: 12, motd: 'Welcome ✓', list: ['a', 'b'], nested: { tps: 19.5 } };
    await store().checks.write(
      [
        check('mon_a', NOW + 1000, {
          ok: false,
          latencyMs: null,
          message: null,
          error: 'connection refused',
          source: 'relay',
          resultId: 'res_1',
        }),
        check('mon_a', NOW + 2000, { latencyMs: 42, message: 'MC 1.21 · 12/100', data, degraded: true }),
      ],
      [],
    );
    const checks = await store().checks.list('mon_a', { from: NOW, to: NOW + HOUR_MS, limit: 10 });
    expect(checks.map(({ id, ...rest }) => rest)).toEqual([
      {
        monitorId: 'mon_a',
        checkedAt: NOW + 2000,
        ok: true,
        latencyMs: 42,
        message: 'MC 1.21 · 12/100',
        error: null,
        data,
        source: 'edge',
      },
      {
        monitorId: 'mon_a',
        checkedAt: NOW + 1000,
        ok: false,
        latencyMs: null,
        message: null,
        error: 'connection refused',
        data: null,
        source: 'relay',
      },
    ] satisfies Omit<StoredCheck, 'id'>[]);
    expect(checks.every((c) => Number.isInteger(c.id))).toBe(true);
  });

  it('sums checks into hourly and daily buckets across writes, with the fewest and most players', async () => {
    await store().checks.write(
      [
        check('mon_a', NOW + 10 * MINUTE_MS, { latencyMs: 10, data: { players: 3 } }),
        check('mon_a', NOW + 20 * MINUTE_MS, { ok: false, degraded: true, latencyMs: 30 }),
        check('mon_a', NOW + 65 * MINUTE_MS, { degraded: true, latencyMs: 20, data: { players: 5 } }),
      ],
      [],
    );
    await store().checks.write(
      [
        check('mon_a', NOW + 30 * MINUTE_MS, { degraded: true, latencyMs: 5, data: { players: 7 } }),
        check('mon_a', NOW + 40 * MINUTE_MS, { latencyMs: null, data: { players: 'many' } }),
      ],
      [],
    );
    const bucket = { monitorId: 'mon_a' };
    // Latency bins (≤5, ≤10, ≤20, ≤35 ms, …): 10 ms in bin 1, 30 in bin 3, 5 in bin 0; 20 in bin 2.
    expect(await store().checks.buckets('hour', ['mon_a'], NOW, NOW + DAY_MS)).toEqual([
      {
        ...bucket,
        start: NOW,
        count: 4,
        upCount: 3,
        degradedCount: 1,
        latencyAvg: 15,
        latencyMin: 5,
        latencyMax: 30,
        playersAvg: 5,
        playersMin: 3,
        playersMax: 7,
        latencyHist: bins({ 0: 1, 1: 1, 3: 1 }),
      },
      {
        ...bucket,
        start: NOW + HOUR_MS,
        count: 1,
        upCount: 1,
        degradedCount: 1,
        latencyAvg: 20,
        latencyMin: 20,
        latencyMax: 20,
        playersAvg: 5,
        playersMin: 5,
        playersMax: 5,
        latencyHist: bins({ 2: 1 }),
      },
    ]);
    expect(await store().checks.buckets('day', ['mon_a'], NOW, NOW + DAY_MS)).toEqual([
      {
        ...bucket,
        start: NOW,
        count: 5,
        upCount: 4,
        degradedCount: 2,
        latencyAvg: 16.25,
        latencyMin: 5,
        latencyMax: 30,
        playersAvg: 5,
        playersMin: 3,
        playersMax: 7,
        latencyHist: bins({ 0: 1, 1: 1, 2: 1, 3: 1 }),
      },
    ]);
  });

  it('counts latencies into the histogram bins by their upper bounds, summed across writes', async () => {
    // On a bound counts in that bin; just above it, in the next; beyond the last bound (5 s), in the open last bin.
    await store().checks.write(
      [
        check('mon_a', NOW, { latencyMs: 0 }),
        check('mon_a', NOW + 1, { latencyMs: 5 }),
        check('mon_a', NOW + 2, { latencyMs: 6 }),
      ],
      [],
    );
    await store().checks.write(
      [
        check('mon_a', NOW + 3, { latencyMs: 1000 }),
        check('mon_a', NOW + 4, { latencyMs: 5001 }),
        check('mon_a', NOW + 5, { latencyMs: 5 }),
      ],
      [],
    );
    const [hour] = await store().checks.buckets('hour', ['mon_a'], NOW, NOW + 1 + HOUR_MS);
    expect(hour?.latencyHist).toEqual(bins({ 0: 3, 1: 1, 12: 1, 15: 1 }));
  });

  it('leaves latency and players empty in a bucket whose checks had none', async () => {
    await store().checks.write([check('mon_a', NOW, { ok: false, latencyMs: null })], []);
    await store().checks.write([check('mon_a', NOW + 1000, { ok: false, latencyMs: null })], []);
    expect(await store().checks.buckets('hour', ['mon_a'], NOW, NOW + 1)).toEqual([
      {
        monitorId: 'mon_a',
        start: NOW,
        count: 2,
        upCount: 0,
        degradedCount: 0,
        latencyAvg: null,
        latencyMin: null,
        latencyMax: null,
        playersAvg: null,
        playersMin: null,
        playersMax: null,
        latencyHist: bins({}),
      },
    ]);
  });

  it("writes the monitors' new state with their checks", async () => {
    const lastResult = {
      checkedAt: NOW + 1000,
      ok: false,
      latencyMs: null,
      message: null,
      error: 'timed out',
      data: null,
      source: 'edge' as const,
    };
    await store().checks.write(
      [check('mon_a', NOW + 1000, { ok: false, error: 'timed out', latencyMs: null })],
      [
        stateRow('mon_a', {
          state: 'down',
          stateSince: NOW + 1000,
          failureStreak: 2,
          lastCheckAt: NOW + 1000,
          lastResult: JSON.stringify(lastResult),
        }),
      ],
    );
    expect(await store().monitors.findById('mon_a')).toMatchObject({
      state: 'down',
      stateSince: NOW + 1000,
      failureStreak: 2,
      lastCheckAt: NOW + 1000,
      lastResult,
    });
    expect(await store().monitors.findById('mon_b')).toMatchObject({
      state: 'unknown',
      lastCheckAt: null,
      lastResult: null,
    });
  });
});
