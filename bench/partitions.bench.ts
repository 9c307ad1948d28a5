// `npm run bench partitions` (or `npx tsx bench/run.ts partitions`): what PostgreSQL's day partitions (migration 0034)
// buy retention. Two UTC days of raw checks, WARDEN_BENCH_ROWS each (1,000,000 by default) over 100 monitors, in a
// schema of their own: the first day goes by dropping its partition (store.timePartitions.dropBefore), the second by
// the per-row prune SQLite still uses (store.checks.prune, per monitor, PRUNE_BATCH rows a statement). Target: a day of
// a million checks gone in under a second. Then the upgrade: 0034 on a plain table holding a day of checks, timed. Needs PostgreSQL at WARDEN_TEST_POSTGRES_URL (the tests' default otherwise).
import { sql } from 'kysely';
import { DAY_MS } from '../src/domain/check.js';
import { PRUNE_BATCH } from '../src/runner/retention.js';
import { connectPostgres } from '../src/store/dialects/postgres/connect.js';
import { timePartitionRepository } from '../src/store/dialects/postgres/time-partitions.js';
import { MIGRATIONS, migrateToLatest } from '../src/store/migrate.js';
import type { Db } from '../src/store/tables.js';
import { addMonitor, addOrganization, historyStore } from '../test/contracts/store-fixtures.js';
import { POSTGRES_URL } from '../test/store-dialects.js';
import type { Benchmark } from './run.js';

const ROWS = Number(process.env.WARDEN_BENCH_ROWS ?? 1_000_000);
const MONITORS = 100;
/** A day long before the wall clock's: no partition the migration made around today is in the way. */
const DAY = Date.UTC(2020, 0, 1);
const TARGET_MS = 1000;

/** A day of checks spread over the day and the monitors, as a day of real ones; through the parent, as ingest writes. */
async function insertDay(db: Db, day: number): Promise<void> {
  await sql`insert into checks (monitor_id, checked_at, ok, latency_ms, message, error, data, source, result_id)
    select 'mon_m' || (i % ${sql.lit(MONITORS)}), ${sql.lit(day)} + (i::bigint * ${sql.lit(DAY_MS)}) / ${sql.lit(ROWS)},
      1, 20, null, null, null, 'edge', null
    from generate_series(0, ${sql.lit(ROWS - 1)}) i`.execute(db);
}

export const benchmark: Benchmark = {
  name: 'partitions',
  description: `retention of a day of ${ROWS.toLocaleString('en')} checks on PostgreSQL: drop its partition vs delete its rows`,
  async run() {
    const schema = `bench_parts_${process.pid}`;
    const connection = await connectPostgres(POSTGRES_URL, schema);
    const { db } = connection;
    try {
      await migrateToLatest(db, schema);
      const store = historyStore(connection);
      await addOrganization(store);
      const ids: string[] = [];
      for (let m = 0; m < MONITORS; m++) ids.push(await addMonitor(store, `m${m}`));
      const partitions = timePartitionRepository(db);
      await partitions.prepare(DAY, 1, { checks: 0, buckets: 0 });
      for (const day of [DAY, DAY + DAY_MS]) await insertDay(db, day);
      await sql`analyze checks`.execute(db);

      let started = performance.now();
      const dropped = await partitions.dropBefore({ checks: DAY + DAY_MS, buckets: 0 });
      const dropMs = performance.now() - started;

      started = performance.now();
      let deleted = 0;
      for (const id of ids)
        for (;;) {
          const n = await store.checks.prune(id, DAY + 2 * DAY_MS, PRUNE_BATCH);
          deleted += n;
          if (n < PRUNE_BATCH) break;
        }
      const deleteMs = performance.now() - started;

      console.log(
        `drop partition  ${dropped?.partitions.join(', ')}: ${dropped?.checks} checks in ${dropMs.toFixed(0)} ms`,
      );
      console.log(
        `delete rows     (per monitor, ${PRUNE_BATCH} a statement): ${deleted} checks in ${deleteMs.toFixed(0)} ms`,
      );
      console.log(`ratio           delete / drop = ${(deleteMs / dropMs).toFixed(0)}×`);

      // The upgrade itself: a day of checks in the plain table of before, then 0034 again (docs/storage.md).
      await MIGRATIONS['0034-time-partitions']?.down?.(db);
      await insertDay(db, DAY + 3 * DAY_MS);
      started = performance.now();
      await db.transaction().execute((trx) => MIGRATIONS['0034-time-partitions']?.up(trx) as Promise<void>);
      console.log(
        `upgrade (0034)  ${ROWS} checks copied into partitions in ${(performance.now() - started).toFixed(0)} ms`,
      );
      return dropped?.checks === ROWS && deleted === ROWS && dropMs < TARGET_MS;
    } finally {
      await connection.checkJournal?.close();
      await sql`drop schema if exists ${sql.id(schema)} cascade`.execute(db);
      await db.destroy();
    }
  },
};
