// Notifications (issue 14): the channels an organization sends alerts to, and the durable outbox of deliveries, written
// in the same transaction as the state change that caused them and claimed by the dispatcher.
import { channelDeliveryTable } from './delivery-outbox.js';
import { type AnyDb, createIndex, organizationId, tableWithId, timestamps } from './schema-parts.js';

export async function up(db: AnyDb): Promise<void> {
  await tableWithId(db, 'notification_channels')
    .$call(organizationId)
    .addColumn('key', 'text', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('config', 'text', (c) => c.notNull())
    .addColumn('rules', 'text', (c) => c.notNull())
    .addColumn('enabled', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('managed_by', 'text', (c) => c.notNull())
    .$call(timestamps)
    .addUniqueConstraint('notification_channels_organization_key', ['organization_id', 'key'])
    .execute();

  await channelDeliveryTable(db, 'notification_deliveries').execute();
  await createIndex(db, 'notification_deliveries_due', 'notification_deliveries', ['status', 'next_attempt_at']);
  await createIndex(db, 'notification_deliveries_channel', 'notification_deliveries', ['channel_id', 'created_at']);
}

export async function down(db: AnyDb): Promise<void> {
  await db.schema.dropTable('notification_deliveries').execute();
  await db.schema.dropTable('notification_channels').execute();
}
