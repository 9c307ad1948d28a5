import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { seed } from '../../test/seed.js';
import { dialects, type OpenedStore } from '../../test/store-dialects.js';
import { addToBuckets, type CheckRow, HOUR_MS, insertChecks, listBuckets, listChecks, updateMonitorStates } from './checks.js';
import { listMonitors } from './monitors.js';

const YAML = 'organization: { name: T }\nmonitors:\n  - { key: a, name: A, type: tcp, config: { host: 127.0.0.1, port: 1 } }\n';

function check(monitorId: string, checkedAt: number, ok: boolean, latencyMs: number): CheckRow {
  return { monitorId, checkedAt, ok, degraded: false, latencyMs, message: null, error: ok ? null : 'down', data: { players: 3 }, source: 'edge', resultId: null };
}

for (const dialect of dialects) {
  describe.skipIf(!dialect.available)(`check writes on ${dialect.name}`, () => {
    let opened: OpenedStore;
    beforeEach(async () => {
      opened = await dialect.open();
    });
    afterEach(async () => {
      await opened.cleanup();
    });

    // The store's db takes SQLite's prepared statements; a transaction without them takes the Kysely statements.
    for (const through of ['the store', 'a transaction'] as const)
      it(`stores checks, buckets and state the same way through ${through}`, async () => {
        const { monitors } = await seed(opened.store.db, YAML, 0);
        const id = monitors.a!.id;
        const t = 10 * HOUR_MS;
        const rows = [check(id, t, true, 10), check(id, t + 1000, false, 30), check(id, t + HOUR_MS, true, 20)];
        const state = { id, state: 'down' as const, state_since: t + 1000, failure_streak: 1, last_check_at: t + HOUR_MS, last_result: '{"ok":true}' };
        const write = async (db: typeof opened.store.db) => {
          await insertChecks(db, rows);
          await addToBuckets(db, rows);
          await updateMonitorStates(db, [state]);
        };
        if (through === 'the store') await write(opened.store.db);
        else await opened.store.db.transaction().execute(write);

        expect((await listChecks(opened.store.db, id, 0, t + 2 * HOUR_MS, 10)).map((c) => [c.ok, c.latencyMs])).toEqual(
          expect.arrayContaining([
            [true, 10],
            [false, 30],
            [true, 20],
          ]),
        );
        const hourly = await listBuckets(opened.store.db, 'check_buckets_hourly', [id], 0, t + 2 * HOUR_MS);
        expect(hourly.map((b) => [b.start, b.count, b.upCount, b.latencyMin, b.latencyMax, b.playersMax])).toEqual([
          [t, 2, 1, 10, 30, 3],
          [t + HOUR_MS, 1, 1, 20, 20, 3],
        ]);
        // A second write into the same bucket adds to it.
        await addToBuckets(opened.store.db, [check(id, t + 2000, true, 5)]);
        const again = await listBuckets(opened.store.db, 'check_buckets_hourly', [id], t, t + 1);
        expect(again.map((b) => [b.count, b.upCount, b.latencyMin, b.latencyMax])).toEqual([[3, 2, 5, 30]]);
        const [monitor] = await listMonitors(opened.store.db, monitors.a!.organizationId);
        expect(monitor).toMatchObject({ state: 'down', stateSince: t + 1000, lastCheckAt: t + HOUR_MS, lastResult: { ok: true } });
      });
  });
}
