// Boards (issue 36): one message per board, posted to a Discord channel through its webhook and then edited in place
// whenever what it shows changes. The row holds the message's id, what it shows (a hash), and the pending edit itself
// (the payload, when it is due, the attempts), so an edit survives a restart or a kill -9 and any process can send it.
import { sql } from 'kysely';
import type { AnyDb } from './schema-parts.js';
import { createIndex, organizationId, tableWithId, time, timestamps } from './schema-parts.js';

export async function up(db: AnyDb): Promise<void> {
  await tableWithId(db, 'page_boards')
    .$call(organizationId)
    .addColumn('page_id', 'text', (c) => c.notNull().references('pages.id').onDelete('cascade'))
    .addColumn('key', 'text', (c) => c.notNull())
    .addColumn('kind', 'text', (c) => c.notNull().check(sql`kind in ('discord')`))
    // The webhook URL (a secret: never in a view, a log or an export but redacted).
    .addColumn('webhook_url', 'text', (c) => c.notNull())
    // Ids of the page's components it shows, JSON; null: all of them.
    .addColumn('component_ids', 'text')
    .addColumn('enabled', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('managed_by', 'text', (c) => c.notNull())
    .$call(timestamps)
    // The message posted, and the hash of what it shows.
    .addColumn('message_id', 'text')
    .addColumn('shown_hash', 'text')
    .addColumn('shown_at', time)
    // The edit waiting to go: its payload (JSON), its hash, when it may go, attempts so far, and a process's claim.
    .addColumn('pending', 'text')
    .addColumn('pending_hash', 'text')
    .addColumn('due_at', time)
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('claimed_until', time)
    // Why the last attempt failed (the receiver's words), and whether the board stopped until it is changed.
    .addColumn('last_error', 'text')
    .addColumn('stopped', 'integer', (c) => c.notNull().defaultTo(0))
    .addUniqueConstraint('page_boards_page_key', ['page_id', 'key'])
    .execute();
  await createIndex(db, 'page_boards_due', 'page_boards', ['due_at']);
}

export async function down(db: AnyDb): Promise<void> {
  await db.schema.dropTable('page_boards').execute();
}
