// Whether a page says "unreachable: <parent> is down" of a component whose monitor sits behind a down parent (issue 37,
// docs/monitors.md "Dependencies"): off on every page until its owner turns it on.
import type { AnyDb } from './schema-parts.js';

export async function up(db: AnyDb): Promise<void> {
  await db.schema
    .alterTable('pages')
    .addColumn('show_unreachable', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
}

export async function down(db: AnyDb): Promise<void> {
  await db.schema.alterTable('pages').dropColumn('show_unreachable').execute();
}
