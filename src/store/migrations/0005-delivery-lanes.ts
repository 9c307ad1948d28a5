// The claim's "an earlier delivery of this channel and monitor is still outstanding" test as an index seek: without it
// each due row scanned its channel's whole history, so claiming from a backlog of 1,000 took ~100 ms on SQLite.
import { type AnyDb, createIndex } from './schema-parts.js';

export async function up(db: AnyDb): Promise<void> {
  await createIndex(db, 'notification_deliveries_lane', 'notification_deliveries', [
    'channel_id',
    'monitor_id',
    'status',
    'created_at',
  ]);
}

export async function down(db: AnyDb): Promise<void> {
  await db.schema.dropIndex('notification_deliveries_lane').execute();
}
