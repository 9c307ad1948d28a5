// Cluster mode (issue 15): the processes sharing one PostgreSQL database, and the leases that share the work out —
// shards of the edge monitors (`shard:NNN`) and the singletons (`singleton:watchdog`, …) — each held by one instance
// until it stops renewing it.
import type { Kysely } from 'kysely';

// biome-ignore lint/suspicious/noExplicitAny: migrations are frozen in time and must not follow today's table types.
type AnyDb = Kysely<any>;

const time = 'bigint';

export async function up(db: AnyDb): Promise<void> {
  await db.schema
    .createTable('cluster_instances')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('started_at', time, (c) => c.notNull())
    // Renewed every few seconds; an instance not seen for the lease time is gone.
    .addColumn('seen_at', time, (c) => c.notNull())
    // JSON: version, address, what it runs (for `warden cluster status` and /readyz).
    .addColumn('info', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createTable('cluster_leases')
    .addColumn('name', 'text', (c) => c.primaryKey())
    .addColumn('holder', 'text')
    .addColumn('expires_at', time, (c) => c.notNull())
    .addColumn('acquired_at', time)
    .execute();
  await db.schema.createIndex('cluster_leases_holder').on('cluster_leases').columns(['holder']).execute();
}

export async function down(db: AnyDb): Promise<void> {
  await db.schema.dropTable('cluster_leases').execute();
  await db.schema.dropTable('cluster_instances').execute();
}
