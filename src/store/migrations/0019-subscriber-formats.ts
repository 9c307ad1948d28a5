// Community subscribers (issue 36): a page subscriber of kind `webhook` may be a Discord or Slack incoming webhook that
// gets the channel's own message rather than Warden's signed JSON. A column beside `kind` (not new kinds): SQLite cannot
// alter the kind's CHECK, and rebuilding page_subscribers would mean rebuilding the outbox that references it.
import { sql } from 'kysely';
import type { AnyDb } from './schema-parts.js';

export async function up(db: AnyDb): Promise<void> {
  await db.schema
    .alterTable('page_subscribers')
    .addColumn('format', 'text', (c) =>
      c.notNull().defaultTo('warden').check(sql`format in ('warden', 'discord', 'slack')`),
    )
    .execute();
}

export async function down(db: AnyDb): Promise<void> {
  await db.schema.alterTable('page_subscribers').dropColumn('format').execute();
}
