// Who is online (issue 36): whether a page shows the names of the players online. Off on every page until its owner
// turns it on: names are personal data, and a page of before never promised to publish them.
import type { AnyDb } from './schema-parts.js';

export async function up(db: AnyDb): Promise<void> {
  await db.schema
    .alterTable('pages')
    .addColumn('show_player_names', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
}

export async function down(db: AnyDb): Promise<void> {
  await db.schema.alterTable('pages').dropColumn('show_player_names').execute();
}
