// Cluster mode (issue 15): the processes sharing one PostgreSQL database, and the leases that share the work out —
// shards of the edge monitors (`shard:NNN`) and the singletons (`singleton:watchdog`, …) — each held by one instance
// until it stops renewing it.
import { type AnyDb, createIndex, tableWithId, time } from './schema-parts.js';

export async function up(db: AnyDb): Promise<void> {
  await tableWithId(db, 'cluster_instances')
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
  await createIndex(db, 'cluster_leases_holder', 'cluster_leases', ['holder']);
}

export async function down(db: AnyDb): Promise<void> {
  await db.schema.dropTable('cluster_leases').execute();
  await db.schema.dropTable('cluster_instances').execute();
}
