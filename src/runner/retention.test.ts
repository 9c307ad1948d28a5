import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { seed } from '../../test/seed.js';
import { dialects, type OpenedStore } from '../../test/store-dialects.js';
import { createLogger } from '../logger.js';
import { addToBuckets, type CheckRow, DAY_MS, insertChecks, listBuckets, listChecks } from '../store/checks.js';
import { createRetention, PRUNE_BATCH } from './retention.js';

for (const dialect of dialects) {
  describe.skipIf(!dialect.available)(`retention on ${dialect.name}`, () => {
    let opened: OpenedStore;
    beforeEach(async () => {
      opened = await dialect.open();
    });
    afterEach(() => opened.cleanup());

    it('prunes checks past 30 days in batches and buckets past 400 days, keeping the rest', async () => {
      const now = Date.UTC(2026, 10, 20);
      const { monitors } = await seed(opened.store.db, 'organization: { name: T }\nmonitors: [{ key: a, name: A, type: tcp, config: { host: h, port: 1 } }]', now);
      const id = monitors.a!.id;
      const row = (checkedAt: number): CheckRow => ({ monitorId: id, checkedAt, ok: true, degraded: false, latencyMs: 1, message: null, error: null, data: null, source: 'edge', resultId: null });
      const old = Array.from({ length: PRUNE_BATCH + 10 }, (_, i) => row(now - 31 * DAY_MS - i * 1000));
      const recent = Array.from({ length: 5 }, (_, i) => row(now - i * 60_000));
      await insertChecks(opened.store.db, [...old, ...recent]);
      await addToBuckets(opened.store.db, [row(now - 401 * DAY_MS), row(now - 399 * DAY_MS), row(now)]);
      const retention = createRetention({ db: opened.store.db, clock: { now: () => now }, logger: createLogger('silent'), checkDays: 30, bucketDays: 400 });
      const pruned = await retention.prune();
      expect(pruned.checks).toBe(PRUNE_BATCH + 10);
      expect(pruned.buckets).toBe(2);
      expect(await listChecks(opened.store.db, id, 0, now + 1, 100)).toHaveLength(5);
      const daily = await listBuckets(opened.store.db, 'check_buckets_daily', [id], 0, now + DAY_MS);
      expect(daily.map((b) => b.start)).toEqual([now - 399 * DAY_MS, now]);
    });
  });
}
