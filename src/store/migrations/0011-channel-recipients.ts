// Recipients of mail through the system SMTP server (issue 32): per organization and address, whether it confirmed that
// it wants that organization's notifications (double opt-in, a hashed token), or unsubscribed. The same table on both
// dialects.
import { type AnyDb, createIndex, organizationId, tableWithId, time } from './schema-parts.js';

export async function up(db: AnyDb): Promise<void> {
  await tableWithId(db, 'channel_recipients')
    .$call(organizationId)
    // Lower-cased.
    .addColumn('address', 'text', (c) => c.notNull())
    // SHA-256 of the token of the last confirmation link mailed; null when none is live.
    .addColumn('confirm_token_hash', 'text')
    // What the one-click unsubscribe link of every message carries.
    .addColumn('unsubscribe_token', 'text', (c) => c.notNull())
    .addColumn('confirmed_at', time)
    .addColumn('unsubscribed_at', time)
    .addColumn('asked_at', time)
    .addColumn('expires_at', time)
    .addColumn('created_at', time, (c) => c.notNull())
    .addUniqueConstraint('channel_recipients_organization_address', ['organization_id', 'address'])
    .execute();
  // Retention forgets addresses that never confirmed, by when they were last asked.
  await createIndex(db, 'channel_recipients_asked', 'channel_recipients', ['asked_at']);
}

export async function down(db: AnyDb): Promise<void> {
  await db.schema.dropTable('channel_recipients').execute();
}
