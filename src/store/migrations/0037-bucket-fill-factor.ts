// On PostgreSQL, the bucket tables keep half of each page free (fillfactor 50, issue 38, docs/storage.md "Buckets
// updated in place"): every fold adds a second's checks to the current hour's and day's bucket of each monitor, and an
// update finding no room on its row's page writes the new version elsewhere and a new entry in each of the table's two
// indexes. With room on the page PostgreSQL updates in place (a heap-only tuple: no index entry, the old version pruned
// from the page without vacuum). Measured, 3,000 bucket rows upserted 30 times: 45 ms a statement at the default
// fillfactor (95 % of the updates moved off their page), 14 ms at 50. PostgreSQL takes no fillfactor on a partitioned
// table: each partition of the hourly buckets gets it, and time-partitions.ts makes the next ones with it. Pages
// already full stay as they are until their rows are rewritten; new pages keep the room. SQLite has no such setting.
import { PostgresAdapter, sql } from 'kysely';
import type { AnyDb } from './schema-parts.js';

const postgres = (db: AnyDb) => db.getExecutor().adapter instanceof PostgresAdapter;

/** The plain tables, and the partitioned one whose partitions each get it. */
const PLAIN = ['check_buckets_daily', 'check_buckets_location_hourly'];
const PARTITIONED = 'check_buckets_hourly';

async function tablesOf(db: AnyDb): Promise<string[]> {
  const { rows } = await sql<{ name: string }>`select c.relname as name from pg_inherits i
    join pg_class c on c.oid = i.inhrelid where i.inhparent = ${PARTITIONED}::regclass`.execute(db);
  return [...PLAIN, ...rows.map((r) => r.name)];
}

export async function up(db: AnyDb): Promise<void> {
  if (!postgres(db)) return;
  for (const table of await tablesOf(db)) await sql`alter table ${sql.table(table)} set (fillfactor = 50)`.execute(db);
}

export async function down(db: AnyDb): Promise<void> {
  if (!postgres(db)) return;
  for (const table of await tablesOf(db)) await sql`alter table ${sql.table(table)} reset (fillfactor)`.execute(db);
}
