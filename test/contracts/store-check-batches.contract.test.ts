// Store contract, writing checks: a relay's result ids stored once, and a batch that fails or whose transaction throws
// leaving nothing behind.
import { beforeEach, expect, it } from 'vitest';
import { DAY_MS, HOUR_MS } from '../../src/domain/check.js';
import { addMonitor, addOrganization, check, describeStore, NOW, stateRow, written } from './store-fixtures.js';

describeStore('check writes', (store) => {
  beforeEach(async () => {
    await addOrganization(store());
    await addMonitor(store(), 'a');
    await addMonitor(store(), 'b');
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
    const key = (monitorId: string, resultId: string) => ({ monitorId, resultId });
    // res_2 is mon_b's, not mon_a's: a result is known by its monitor and its id.
    expect(
      await store().checks.storedResultKeys([
        key('mon_a', 'res_1'),
        key('mon_a', 'res_2'),
        key('mon_b', 'res_2'),
        key('mon_a', 'res_3'),
      ]),
    ).toEqual(new Set(['mon_a\u0000res_1', 'mon_b\u0000res_2']));
    expect(await store().checks.storedResultKeys([])).toEqual(new Set());
  });

  it('tells which are stored among the checks of a span of time, folded or journaled', async () => {
    await store().checks.write([check('mon_a', NOW - 3 * DAY_MS, { source: 'relay', resultId: 'res_old' })], []);
    // A read folds the journal; the next one stays journaled.
    await store().checks.list('mon_a', { from: 0, to: NOW + DAY_MS, limit: 10 });
    await store().checks.write([check('mon_b', NOW, { source: 'relay', resultId: 'res_now' })], []);
    const ids = [
      { monitorId: 'mon_a', resultId: 'res_old' },
      { monitorId: 'mon_b', resultId: 'res_now' },
    ];
    expect(await store().checks.storedResultKeys(ids, { from: NOW - 3 * DAY_MS, to: NOW })).toEqual(
      new Set(['mon_a\u0000res_old', 'mon_b\u0000res_now']),
    );
    expect(await store().checks.storedResultKeys(ids, { from: NOW - DAY_MS, to: NOW })).toEqual(
      new Set(['mon_b\u0000res_now']),
    );
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
    // The second row is one every dialect refuses: a check without a time.
    const write = store().checks.write(
      [check('mon_a', NOW), check('mon_a', null as unknown as number)],
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
