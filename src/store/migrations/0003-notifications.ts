// Notifications (issue 14): the channels an organization sends alerts to, and the durable outbox of deliveries, written
// in the same transaction as the state change that caused them and claimed by the dispatcher.
import { sql } from 'kysely';
import { type AnyDb, createIndex, organizationId, tableWithId, time, timestamps } from './schema-parts.js';

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

  await tableWithId(db, 'notification_deliveries')
    .addColumn('event_id', 'text', (c) => c.notNull())
    .addColumn('channel_id', 'text', (c) => c.notNull().references('notification_channels.id').onDelete('cascade'))
    .addColumn('organization_id', 'text', (c) => c.notNull())
    .addColumn('monitor_id', 'text')
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('event', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull().check(sql`status in ('pending', 'sending', 'sent', 'dead')`))
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('next_attempt_at', time, (c) => c.notNull())
    .addColumn('claimed_until', time)
    .addColumn('last_error', 'text')
    .addColumn('last_status', 'integer')
    .addColumn('last_answer', 'text')
    .addColumn('created_at', time, (c) => c.notNull())
    .addColumn('sent_at', time)
    .addUniqueConstraint('notification_deliveries_event_channel', ['event_id', 'channel_id'])
    .execute();
  await createIndex(db, 'notification_deliveries_due', 'notification_deliveries', ['status', 'next_attempt_at']);
  await createIndex(db, 'notification_deliveries_channel', 'notification_deliveries', ['channel_id', 'created_at']);
}

export async function down(db: AnyDb): Promise<void> {
  await db.schema.dropTable('notification_deliveries').execute();
  await db.schema.dropTable('notification_channels').execute();
}
