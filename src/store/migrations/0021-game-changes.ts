// Game changes (issue 36): the recent version, map and wipe changes of each monitor that announces them (`game_changes`,
// written by ingest in the commit that publishes the game.changed event, kept short: the newest few per monitor, pruned
// by age), and a page's `announce_game_changes`: whether its page, feed and subscribers carry them (off by default).
import type { AnyDb } from './schema-parts.js';
import { createIndex, organizationId, tableWithId, time } from './schema-parts.js';

export async function up(db: AnyDb): Promise<void> {
  // The id is the event's own (stable per monitor, field and time): a retried commit stores nothing twice.
  await tableWithId(db, 'game_changes')
    .$call(organizationId)
    .addColumn('monitor_id', 'text', (c) => c.notNull().references('monitors.id').onDelete('cascade'))
    .addColumn('field', 'text', (c) => c.notNull())
    .addColumn('from_value', 'text', (c) => c.notNull())
    .addColumn('to_value', 'text', (c) => c.notNull())
    .addColumn('at', time, (c) => c.notNull())
    .execute();
  await createIndex(db, 'game_changes_monitor_at', 'game_changes', ['monitor_id', 'at']);
  await db.schema
    .alterTable('pages')
    .addColumn('announce_game_changes', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
}

export async function down(db: AnyDb): Promise<void> {
  await db.schema.alterTable('pages').dropColumn('announce_game_changes').execute();
  await db.schema.dropTable('game_changes').execute();
}
