// Quiet maintenance (issue 36): whether a window's start and end are announced to the organization's channels and the
// page's subscribers. On for every window of before (they were all announced); panel restart windows turn it off.
import type { AnyDb } from './schema-parts.js';

export async function up(db: AnyDb): Promise<void> {
  await db.schema
    .alterTable('maintenance')
    .addColumn('announce', 'integer', (c) => c.notNull().defaultTo(1))
    .execute();
}

export async function down(db: AnyDb): Promise<void> {
  await db.schema.alterTable('maintenance').dropColumn('announce').execute();
}
