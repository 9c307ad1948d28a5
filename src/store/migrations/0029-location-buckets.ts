// Per-location hourly rollups (issue 37): for monitors with several locations, each location's checks summed per hour,
// so a latency chart per location reads a few rows rather than the raw checks. Single-location monitors have none:
// their location's series is the monitor's own rollup (check_buckets_hourly).
import { PostgresAdapter, sql } from 'kysely';
import { type AnyDb, time } from './schema-parts.js';

export async function up(db: AnyDb): Promise<void> {
  const postgres = db.getExecutor().adapter instanceof PostgresAdapter;
  await db.schema
    .createTable('check_buckets_location_hourly')
    .addColumn('monitor_id', 'text', (c) => c.notNull().references('monitors.id').onDelete('cascade'))
    .addColumn('location', 'text', (c) => c.notNull())
    .addColumn('bucket_start', time, (c) => c.notNull())
    .addColumn('count', 'integer', (c) => c.notNull())
    .addColumn('up_count', 'integer', (c) => c.notNull())
    .addColumn('latency_count', 'integer', (c) => c.notNull())
    .addColumn('latency_sum', time, (c) => c.notNull())
    .addColumn('latency_min', 'integer')
    .addColumn('latency_max', 'integer')
    .addPrimaryKeyConstraint('check_buckets_location_hourly_pk', ['monitor_id', 'location', 'bucket_start'])
    // SQLite: the rows live in the primary key's tree, rather than in a rowid table beside an index that repeats the
    // key (about half the bytes, measured by bench/locations.bench.ts).
    .$call((table) => (postgres ? table : table.modifyEnd(sql`without rowid`)))
    .execute();
}

export async function down(db: AnyDb): Promise<void> {
  await db.schema.dropTable('check_buckets_location_hourly').execute();
}
