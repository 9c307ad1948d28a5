// Notifications, part two (issue 14): rules that skip a delivery at send time (a `skipped` status), page subscribers
// (email and webhook, double opt-in) whose deliveries share the outbox with the channels', the channels monitors and
// pages name, relays' offline state and maintenance windows' notices (so "relay back" and "maintenance ended" are sent
// once, across restarts and processes).
import { sql } from 'kysely';
import { channelDeliveryTable, DELIVERY_COLUMNS, deliveryTable } from './delivery-outbox.js';
import { type AnyDb, createIndex, organizationId, tableWithId, time } from './schema-parts.js';

export async function up(db: AnyDb): Promise<void> {
  await tableWithId(db, 'page_subscribers')
    .$call(organizationId)
    .addColumn('page_id', 'text', (c) => c.notNull().references('pages.id').onDelete('cascade'))
    .addColumn('kind', 'text', (c) => c.notNull().check(sql`kind in ('email', 'webhook')`))
    // The email address (lower-cased) or the webhook URL.
    .addColumn('address', 'text', (c) => c.notNull())
    // A webhook subscriber's signing secret (whsec_…), shown once when it subscribes.
    .addColumn('secret', 'text')
    // SHA-256 of the confirmation token mailed for the double opt-in; null once confirmed.
    .addColumn('confirm_token_hash', 'text')
    // What the one-click unsubscribe link in every message carries (it can do nothing but unsubscribe this address).
    .addColumn('unsubscribe_token', 'text', (c) => c.notNull())
    .addColumn('confirmed_at', time)
    // An unconfirmed subscription is deleted after this (48 h); null once confirmed.
    .addColumn('expires_at', time)
    // Who asked (the client address), for the per-address cap; never shown.
    .addColumn('requested_by', 'text')
    .addColumn('created_at', time, (c) => c.notNull())
    .addUniqueConstraint('page_subscribers_page_kind_address', ['page_id', 'kind', 'address'])
    .execute();
  await createIndex(db, 'page_subscribers_requested_by', 'page_subscribers', ['requested_by', 'created_at']);
  await createIndex(db, 'page_subscribers_expires', 'page_subscribers', ['expires_at']);

  // The outbox again, now for a channel or a page subscriber (exactly one), and with `skipped`: SQLite cannot alter a
  // column's NOT NULL or a CHECK, so the table is rebuilt on both dialects and its rows copied.
  await deliveryTable(
    db,
    'notification_deliveries_new',
    (t) =>
      t
        .addColumn('channel_id', 'text', (c) => c.references('notification_channels.id').onDelete('cascade'))
        .addColumn('subscriber_id', 'text', (c) => c.references('page_subscribers.id').onDelete('cascade')),
    sql`status in ('pending', 'sending', 'sent', 'dead', 'skipped')`,
  )
    .addCheckConstraint('notification_deliveries_one_target', sql`(channel_id is null) <> (subscriber_id is null)`)
    .execute();
  const columns = DELIVERY_COLUMNS;
  await sql`insert into notification_deliveries_new (${sql.raw(columns)}) select ${sql.raw(columns)} from notification_deliveries`.execute(
    db,
  );
  await db.schema.dropTable('notification_deliveries').execute();
  await db.schema.alterTable('notification_deliveries_new').renameTo('notification_deliveries').execute();
  await createIndex(
    db,
    'notification_deliveries_event_channel',
    'notification_deliveries',
    ['event_id', 'channel_id'],
    'unique',
  );
  await createIndex(
    db,
    'notification_deliveries_event_subscriber',
    'notification_deliveries',
    ['event_id', 'subscriber_id'],
    'unique',
  );
  await createIndex(db, 'notification_deliveries_due', 'notification_deliveries', ['status', 'next_attempt_at']);
  await createIndex(db, 'notification_deliveries_channel', 'notification_deliveries', ['channel_id', 'created_at']);
  await createIndex(db, 'notification_deliveries_subscriber', 'notification_deliveries', [
    'subscriber_id',
    'created_at',
  ]);

  // Keys of the channels a monitor or a page names (JSON array): those channels get its events (null: none named).
  await db.schema.alterTable('monitors').addColumn('notify', 'text').execute();
  await db.schema.alterTable('pages').addColumn('notify', 'text').execute();
  // Whether visitors may subscribe to the page's incidents and maintenance (off by default).
  await db.schema
    .alterTable('pages')
    .addColumn('subscriptions', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  // Since when the relay is known offline (its "offline" notice sent); null while it is online.
  await db.schema.alterTable('relays').addColumn('offline_since', time).execute();
  // When the window's "started" and "ended" notices were published; a window is announced once.
  await db.schema.alterTable('maintenance').addColumn('started_notice_at', time).execute();
  await db.schema.alterTable('maintenance').addColumn('ended_notice_at', time).execute();
}

export async function down(db: AnyDb): Promise<void> {
  await db.schema.alterTable('maintenance').dropColumn('ended_notice_at').execute();
  await db.schema.alterTable('maintenance').dropColumn('started_notice_at').execute();
  await db.schema.alterTable('relays').dropColumn('offline_since').execute();
  await db.schema.alterTable('pages').dropColumn('subscriptions').execute();
  await db.schema.alterTable('pages').dropColumn('notify').execute();
  await db.schema.alterTable('monitors').dropColumn('notify').execute();
  await db.deleteFrom('notification_deliveries').where('channel_id', 'is', null).execute();
  await channelDeliveryTable(db, 'notification_deliveries_old').execute();
  const columns = DELIVERY_COLUMNS;
  await sql`insert into notification_deliveries_old (${sql.raw(columns)}) select ${sql.raw(columns)} from notification_deliveries where status <> 'skipped'`.execute(
    db,
  );
  await db.schema.dropTable('notification_deliveries').execute();
  await db.schema.alterTable('notification_deliveries_old').renameTo('notification_deliveries').execute();
  await createIndex(db, 'notification_deliveries_due', 'notification_deliveries', ['status', 'next_attempt_at']);
  await createIndex(db, 'notification_deliveries_channel', 'notification_deliveries', ['channel_id', 'created_at']);
  await db.schema.dropTable('page_subscribers').execute();
}
