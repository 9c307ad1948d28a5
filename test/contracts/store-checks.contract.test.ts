// Store contract, writing checks: the rows, their hourly and daily buckets and the monitors' state, as one batch.
import { beforeEach, expect, it } from 'vitest';
import { DAY_MS, HOUR_MS, type StoredCheck } from '../../src/domain/check.js';
import type { Store } from '../../src/store/index.js';
import { addMonitor, addOrganization, check, describeStore, NOW, stateRow } from './store-fixtures.js';

const MINUTE_MS = 60_000;

/** A latency histogram of 16 bins with these counts (bin → checks), the others 0. */
function bins(counts: Record<number, number>): number[] {
  return Array.from({ length: 16 }, (_, bin) => counts[bin] ?? 0);
}

/** What a monitor holds after a write: its checks (newest first), buckets of both periods and state. */
async function written(store: Store, monitorId: string) {
  const checks = await store.checks.list(monitorId, { from: 0, to: NOW + DAY_MS, limit: 100 });
  return {
    checks: checks.map(({ id, ...rest }) => rest),
    hourly: await store.checks.buckets('hour', [monitorId], 0, NOW + DAY_MS),
    daily: await store.checks.buckets('day', [monitorId], 0, NOW + DAY_MS),
    state: (({ state, stateSince, failureStreak, lastCheckAt, lastResult }) => ({
      state,
      stateSince,
      failureStreak,
      lastCheckAt,
      lastResult,
    }))((await store.monitors.findById(monitorId))!),
  };
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

  it("stores a relay's result id once per monitor, and counts it in the buckets once", async () => {
    await store().checks.write([check('mon_a', NOW, { source: 'relay', resultId: 'res_1' })], []);
    await store().checks.write(
      [
        check('mon_a', NOW, { source: 'relay', resultId: 'res_1' }),
        check('mon_b', NOW, { source: 'relay', resultId: 'res_1' }),
      ],
      [],
    );
    await store().checks.write(
      [
        check('mon_a', NOW + 1000, { source: 'relay', resultId: 'res_2' }),
        check('mon_a', NOW + 1000, { source: 'relay', resultId: 'res_2' }),
      ],
      [],
    );
    expect(await store().checks.list('mon_a', { from: 0, to: NOW + DAY_MS, limit: 10 })).toHaveLength(2);
    expect(await store().checks.list('mon_b', { from: 0, to: NOW + DAY_MS, limit: 10 })).toHaveLength(1);
    expect(await store().checks.bucketCounts('hour', ['mon_a'], NOW, NOW + DAY_MS)).toEqual([
      { monitorId: 'mon_a', start: NOW, count: 2, upCount: 2, degradedCount: 0 },
    ]);
  });

  it('stores checks without a result id every time', async () => {
    await store().checks.write([check('mon_a', NOW)], []);
    await store().checks.write([check('mon_a', NOW)], []);
    expect(await store().checks.list('mon_a', { from: 0, to: NOW + DAY_MS, limit: 10 })).toHaveLength(2);
  });

  it('tells which of these result ids are stored, by monitor', async () => {
    await store().checks.write(
      [
        check('mon_a', NOW, { source: 'relay', resultId: 'res_1' }),
        check('mon_b', NOW, { source: 'relay', resultId: 'res_2' }),
      ],
      [],
    );
    expect(await store().checks.storedResultKeys(['res_1', 'res_2', 'res_3'])).toEqual(
      new Set(['mon_a\u0000res_1', 'mon_b\u0000res_2']),
    );
    expect(await store().checks.storedResultKeys([])).toEqual(new Set());
  });

  for (const through of ['the store', 'a transaction'] as const)
    it(`stores checks, buckets and state the same way through ${through}`, async () => {
      const checks = [
        check('mon_a', NOW, { latencyMs: 10, data: { players: 3 } }),
        check('mon_a', NOW + 1000, { ok: false, latencyMs: 30 }),
        check('mon_a', NOW + HOUR_MS, { latencyMs: 20 }),
      ];
      const states = [
        stateRow('mon_a', {
          state: 'down',
          stateSince: NOW + 1000,
          failureStreak: 1,
          lastCheckAt: NOW + HOUR_MS,
          lastResult: '{"ok":true}',
        }),
      ];
      if (through === 'the store') await store().checks.write(checks, states);
      else await store().transaction((t) => t.checks.write(checks, states));
      const after = await written(store(), 'mon_a');
      expect(after.checks.map((c) => [c.checkedAt, c.ok, c.latencyMs])).toEqual([
        [NOW + HOUR_MS, true, 20],
        [NOW + 1000, false, 30],
        [NOW, true, 10],
      ]);
      expect(after.hourly.map((b) => [b.start, b.count, b.upCount, b.latencyMin, b.latencyMax, b.playersMax])).toEqual([
        [NOW, 2, 1, 10, 30, 3],
        [NOW + HOUR_MS, 1, 1, 20, 20, null],
      ]);
      expect(after.daily.map((b) => [b.start, b.count, b.upCount])).toEqual([[NOW, 3, 2]]);
      expect(after.state).toEqual({
        state: 'down',
        stateSince: NOW + 1000,
        failureStreak: 1,
        lastCheckAt: NOW + HOUR_MS,
        lastResult: { ok: true },
      });
    });

  it('leaves nothing behind when a write fails part way', async () => {
    const before = await written(store(), 'mon_a');
    const write = store().checks.write(
      [check('mon_a', NOW), check('mon_missing', NOW)],
      [stateRow('mon_a', { state: 'down' })],
    );
    await expect(write).rejects.toThrow();
    expect(await written(store(), 'mon_a')).toEqual(before);
  });

  it('leaves nothing behind when the transaction it is part of throws', async () => {
    const before = await written(store(), 'mon_a');
    const work = store().transaction(async (t) => {
      await t.checks.write([check('mon_a', NOW)], [stateRow('mon_a', { state: 'down' })]);
      throw new Error('changed our mind');
    });
    await expect(work).rejects.toThrow('changed our mind');
    expect(await written(store(), 'mon_a')).toEqual(before);
  });

  it('does not join a transaction it is not part of', async () => {
    let entered!: () => void;
    let proceed!: () => void;
    const inside = new Promise<void>((resolve) => (entered = resolve));
    const released = new Promise<void>((resolve) => (proceed = resolve));
    const other = store().transaction(async (t) => {
      await t.monitors.setPushToken('mon_b', null, NOW + 1);
      entered();
      await released;
      throw new Error('rolled back');
    });
    await inside;
    const write = store().checks.write([check('mon_a', NOW)], []);
    proceed();
    await expect(other).rejects.toThrow('rolled back');
    await write;
    expect(await store().checks.list('mon_a', { from: 0, to: NOW + DAY_MS, limit: 10 })).toHaveLength(1);
  });
});
