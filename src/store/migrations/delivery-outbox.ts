// The notification outbox as migrations 0003 and 0004 declare it. 0004 rebuilds the table (SQLite cannot alter a
// column's NOT NULL or a CHECK) and its `down` rebuilds 0003's again: one declaration of the columns they share keeps
// the rebuilt tables equal to the originals. Frozen like schema-parts.ts: add, never change.
import { type RawBuilder, sql } from 'kysely';
import { type AnyDb, tableWithId, time } from './schema-parts.js';

type Table = ReturnType<typeof tableWithId>;

/** Every column both versions hold, in order: what a rebuild copies. */
export const DELIVERY_COLUMNS =
  'id, event_id, channel_id, organization_id, monitor_id, kind, event, status, attempts, next_attempt_at, claimed_until, last_error, last_status, last_answer, created_at, sent_at';

/** The outbox table `name`, its target columns added by `targets`, its statuses checked by `statuses`. */
export const deliveryTable = (
  db: AnyDb,
  name: string,
  targets: (table: Table) => Table,
  statuses: RawBuilder<unknown>,
): Table =>
  tableWithId(db, name)
    .addColumn('event_id', 'text', (c) => c.notNull())
    .$call(targets)
    .addColumn('organization_id', 'text', (c) => c.notNull())
    .addColumn('monitor_id', 'text')
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('event', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull().check(statuses))
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('next_attempt_at', time, (c) => c.notNull())
    .addColumn('claimed_until', time)
    .addColumn('last_error', 'text')
    .addColumn('last_status', 'integer')
    .addColumn('last_answer', 'text')
    .addColumn('created_at', time, (c) => c.notNull())
    .addColumn('sent_at', time);

/** 0003's outbox: every delivery goes to a channel, one per event and channel. */
export const channelDeliveryTable = (db: AnyDb, name: string): Table =>
  deliveryTable(
    db,
    name,
    (t) =>
      t.addColumn('channel_id', 'text', (c) => c.notNull().references('notification_channels.id').onDelete('cascade')),
    sql`status in ('pending', 'sending', 'sent', 'dead')`,
  ).addUniqueConstraint('notification_deliveries_event_channel', ['event_id', 'channel_id']);
