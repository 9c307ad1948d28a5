// Retention of raw checks by the day: on PostgreSQL a day whose partition the pass made is dropped whole once all of it
// is past retention (docs/storage.md "Partitions"); SQLite deletes the same rows one by one. Either way they are gone,
// and the days after are kept.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { seed } from '../../test/seed.js';
import { dialects, type OpenedStore } from '../../test/store-dialects.js';
import { type CheckRow, DAY_MS } from '../domain/check.js';
import { createLogger } from '../logger.js';
import { createRetention } from './retention.js';

for (const dialect of dialects) {
  describe.skipIf(!dialect.available)(`retention by the day on ${dialect.name}`, () => {
    let opened: OpenedStore;
    beforeEach(async () => {
      opened = await dialect.open();
    });
    afterEach(() => opened.cleanup());

    it('prunes a day of checks past 30 days whole, keeping the checks of the days after', async () => {
      const now = Date.UTC(2026, 10, 20, 12);
      const { monitors } = await seed(
        opened.store,
        'organization: { name: T }\nmonitors: [{ key: a, name: A, type: tcp, config: { host: h, port: 1 } }]',
        now,
      );
      const id = monitors.a!.id;
      const row = (checkedAt: number): CheckRow => ({
        monitorId: id,
        checkedAt,
        ok: true,
        degraded: false,
        latencyMs: 1,
        message: null,
        error: null,
        data: null,
        source: 'edge',
        resultId: null,
      });
      const then = now - 32 * DAY_MS;
      await opened.store.checks.write(
        [...Array.from({ length: 20 }, (_, i) => row(then + i * 60_000)), row(now - 29 * DAY_MS), row(now - 60_000)],
        [],
      );
      let clock = then;
      const retention = createRetention({
        store: opened.store,
        clock: { now: () => clock },
        logger: createLogger('silent'),
        checkDays: 30,
        bucketDays: 400,
      });
      // A pass on that day (which, on PostgreSQL, makes its partition), then one 32 days later.
      expect((await retention.prune()).checks).toBe(0);
      clock = now;
      const pruned = await retention.prune();
      expect(pruned.checks).toBe(20);
      expect(pruned.partitions > 0).toBe(dialect.name === 'postgres');
      const left = await opened.store.checks.list(id, { from: 0, to: now, limit: 100 });
      expect(left.map((c) => c.checkedAt)).toEqual([now - 60_000, now - 29 * DAY_MS]);
      // The daily buckets outlive the raw checks.
      const daily = await opened.store.checks.buckets('day', [id], then - DAY_MS, then + DAY_MS);
      expect(daily.map((b) => b.count)).toEqual([20]);
    });
  });
}
