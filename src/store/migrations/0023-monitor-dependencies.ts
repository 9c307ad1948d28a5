// Monitor dependencies (issue 37): a monitor's parent (`depends_on`, the parent monitor's key in the same
// organization; null: none) and a relay's (`relays.depends_on`), which the relay's monitors inherit unless they name
// their own. Keys, not ids: a monitor's key never changes, and the file, the API and the export all name monitors by it.
import type { AnyDb } from './schema-parts.js';

export async function up(db: AnyDb): Promise<void> {
  await db.schema.alterTable('monitors').addColumn('depends_on', 'text').execute();
  await db.schema.alterTable('relays').addColumn('depends_on', 'text').execute();
  // The children of a parent (clearing them when it is deleted; counting them when it goes down).
  await db.schema
    .createIndex('monitors_depends_on_idx')
    .on('monitors')
    .columns(['organization_id', 'depends_on'])
    .execute();
}

export async function down(db: AnyDb): Promise<void> {
  await db.schema.dropIndex('monitors_depends_on_idx').execute();
  await db.schema.alterTable('relays').dropColumn('depends_on').execute();
  await db.schema.alterTable('monitors').dropColumn('depends_on').execute();
}
