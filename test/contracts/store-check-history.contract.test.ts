// Store contract, reading and pruning check history: pages of checks, bucket ranges, retention, and what a deleted monitor takes along.
import { beforeEach, expect, it } from 'vitest';
import { DAY_MS, HOUR_MS } from '../../src/domain/check.js';
import { addComponent, addMonitor, addOrganization, addPage, check, describeStore, NOW } from './store-fixtures.js';

describeStore('check history', (store) => {
  beforeEach(async () => {
    await addOrganization(store());
    await addMonitor(store(), 'a');
    await addMonitor(store(), 'b');
  });

  it('lists the checks of one monitor in [from, to), newest first, up to the limit', async () => {
    await store().checks.write(
      [0, 1, 2, 3, 4].map((i) => check('mon_a', NOW + i * 1000, { latencyMs: i })),
      [],
    );
    await store().checks.write([check('mon_b', NOW + 2000)], []);
    const range = { from: NOW + 1000, to: NOW + 4000 };
    expect((await store().checks.list('mon_a', { ...range, limit: 10 })).map((c) => c.checkedAt)).toEqual([
      NOW + 3000,
      NOW + 2000,
      NOW + 1000,
    ]);
    expect((await store().checks.list('mon_a', { ...range, limit: 2 })).map((c) => c.checkedAt)).toEqual([
      NOW + 3000,
      NOW + 2000,
    ]);
    expect(await store().checks.list('mon_unknown', { ...range, limit: 10 })).toEqual([]);
  });

  it('pages through checks with a (checkedAt, id) cursor, checks at the same time included', async () => {
    const times = [NOW, NOW + 1000, NOW + 1000, NOW + 1000, NOW + 2000, NOW + 3000, NOW + 3000];
    await store().checks.write(
      times.map((t, i) => check('mon_a', t, { latencyMs: i })),
      [],
    );
    const everything = await store().checks.list('mon_a', { from: 0, to: NOW + DAY_MS, limit: 100 });
    const paged = [];
    let before: { checkedAt: number; id: number } | undefined;
    for (;;) {
      const page = await store().checks.list('mon_a', { from: 0, to: NOW + DAY_MS, limit: 2, before });
      if (page.length === 0) break;
      paged.push(...page);
      const last = page.at(-1)!;
      before = { checkedAt: last.checkedAt, id: last.id };
    }
    expect(paged).toEqual(everything);
    expect(paged.map((c) => c.latencyMs).sort()).toEqual([0, 1, 2, 3, 4, 5, 6]);
    expect(paged.map((c) => c.checkedAt)).toEqual([...times].reverse());
  });

  it('reads the buckets of these monitors starting in [from, to), oldest first', async () => {
    await store().checks.write(
      [
        check('mon_a', NOW + 2 * HOUR_MS),
        check('mon_a', NOW),
        check('mon_b', NOW + HOUR_MS),
        check('mon_a', NOW + 3 * HOUR_MS),
        check('mon_a', NOW - HOUR_MS),
      ],
      [],
    );
    const hourly = await store().checks.buckets('hour', ['mon_a', 'mon_b'], NOW, NOW + 3 * HOUR_MS);
    expect(hourly.map((b) => [b.monitorId, b.start])).toEqual([
      ['mon_a', NOW],
      ['mon_b', NOW + HOUR_MS],
      ['mon_a', NOW + 2 * HOUR_MS],
    ]);
    expect((await store().checks.buckets('hour', ['mon_b'], 0, NOW + DAY_MS)).map((b) => b.start)).toEqual([
      NOW + HOUR_MS,
    ]);
    expect(await store().checks.buckets('hour', [], 0, NOW + DAY_MS)).toEqual([]);
  });

  it('reads daily buckets by the start of their UTC day', async () => {
    await store().checks.write(
      [check('mon_a', NOW - 1), check('mon_a', NOW + 23 * HOUR_MS), check('mon_a', NOW + DAY_MS)],
      [],
    );
    const daily = await store().checks.buckets('day', ['mon_a'], NOW - DAY_MS, NOW + 2 * DAY_MS);
    expect(daily.map((b) => [b.start, b.count])).toEqual([
      [NOW - DAY_MS, 1],
      [NOW, 1],
      [NOW + DAY_MS, 1],
    ]);
    expect((await store().checks.buckets('day', ['mon_a'], NOW, NOW + DAY_MS)).map((b) => b.start)).toEqual([NOW]);
  });

  it('reads just the counts of the same buckets', async () => {
    await store().checks.write(
      [
        check('mon_a', NOW),
        check('mon_a', NOW + 1000, { ok: false }),
        check('mon_a', NOW + 2000, { degraded: true }),
        check('mon_b', NOW + HOUR_MS),
        check('mon_a', NOW + DAY_MS),
      ],
      [],
    );
    const counts = await store().checks.bucketCounts('hour', ['mon_a', 'mon_b'], NOW, NOW + DAY_MS);
    expect(counts.sort((x, y) => x.start - y.start)).toEqual([
      { monitorId: 'mon_a', start: NOW, count: 3, upCount: 2, degradedCount: 1 },
      { monitorId: 'mon_b', start: NOW + HOUR_MS, count: 1, upCount: 1, degradedCount: 0 },
    ]);
    expect(await store().checks.bucketCounts('day', [], 0, NOW + DAY_MS)).toEqual([]);
  });

  it("prunes at most a batch of one monitor's checks older than the cutoff", async () => {
    await store().checks.write(
      [0, 1, 2, 3, 4].map((i) => check('mon_a', NOW + i * 1000)),
      [],
    );
    await store().checks.write([check('mon_b', NOW)], []);
    expect(await store().checks.prune('mon_a', NOW + 4000, 3)).toBe(3);
    expect(await store().checks.prune('mon_a', NOW + 4000, 3)).toBe(1);
    expect(await store().checks.prune('mon_a', NOW + 4000, 3)).toBe(0);
    expect(
      (await store().checks.list('mon_a', { from: 0, to: NOW + DAY_MS, limit: 10 })).map((c) => c.checkedAt),
    ).toEqual([NOW + 4000]);
    expect(await store().checks.list('mon_b', { from: 0, to: NOW + DAY_MS, limit: 10 })).toHaveLength(1);
  });

  it("prunes the given monitors' buckets of one period older than the cutoff", async () => {
    await store().checks.write([check('mon_a', NOW - DAY_MS), check('mon_a', NOW), check('mon_b', NOW - DAY_MS)], []);
    expect(await store().checks.pruneBuckets('hour', ['mon_a'], NOW)).toBe(1);
    expect((await store().checks.buckets('hour', ['mon_a'], 0, NOW + DAY_MS)).map((b) => b.start)).toEqual([NOW]);
    expect((await store().checks.buckets('day', ['mon_a'], 0, NOW + DAY_MS)).map((b) => b.start)).toEqual([
      NOW - DAY_MS,
      NOW,
    ]);
    expect((await store().checks.buckets('hour', ['mon_b'], 0, NOW + DAY_MS)).map((b) => b.start)).toEqual([
      NOW - DAY_MS,
    ]);
    expect(await store().checks.pruneBuckets('day', ['mon_a'], NOW)).toBe(1);
    expect((await store().checks.buckets('day', ['mon_a'], 0, NOW + DAY_MS)).map((b) => b.start)).toEqual([NOW]);
    // Several monitors in one call (retention passes hundreds at a time).
    expect(await store().checks.pruneBuckets('hour', ['mon_a', 'mon_b'], NOW + DAY_MS)).toBe(2);
    expect(await store().checks.buckets('hour', ['mon_a', 'mon_b'], 0, NOW + DAY_MS)).toEqual([]);
  });

  it('deletes the checks and buckets of a deleted monitor, leaving its components without a monitor', async () => {
    const pageId = await addPage(store(), 'status');
    await addComponent(store(), pageId, 'lobby', { monitorId: 'mon_a' });
    await store().checks.write([check('mon_a', NOW, { source: 'relay', resultId: 'res_1' }), check('mon_b', NOW)], []);
    await store().monitors.delete('mon_a');
    expect(await store().checks.list('mon_a', { from: 0, to: NOW + DAY_MS, limit: 10 })).toEqual([]);
    expect(await store().checks.buckets('hour', ['mon_a', 'mon_b'], 0, NOW + DAY_MS)).toMatchObject([
      { monitorId: 'mon_b' },
    ]);
    expect(await store().checks.buckets('day', ['mon_a'], 0, NOW + DAY_MS)).toEqual([]);
    expect(await store().checks.storedResultKeys([{ monitorId: 'mon_a', resultId: 'res_1' }])).toEqual(new Set());
    expect(await store().components.findById('cmp_lobby')).toMatchObject({ pageId, monitorId: null });
  });
});
