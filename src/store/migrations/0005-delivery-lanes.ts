// The claim's "an earlier delivery of this channel and monitor is still outstanding" test as an index seek: without it
// each due row scanned its channel's whole history, so claiming from a backlog of 1,000 took ~100 ms on SQLite.
import type { Kysely } from 'kysely';

// biome-ignore lint/suspicious/noExplicitAny: migrations are frozen in time and must not follow today's table types.
type AnyDb = Kysely<any>;

export async function up(db: AnyDb): Promise<void> {
  await db.schema
    .createIndex('notification_deliveries_lane')
    .on('notification_deliveries')
    .columns(['channel_id', 'monitor_id', 'status', 'created_at'])
    .execute();
}

export async function down(db: AnyDb): Promise<void> {
  await db.schema.dropIndex('notification_deliveries_lane').execute();
}
