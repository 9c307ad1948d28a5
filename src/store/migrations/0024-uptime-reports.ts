// Uptime reports (issue 37): whether a page publishes its uptime history (off on every page until its owner turns it
// on), whether an organization's owners get the monthly report, and the last month mailed (each month once, whichever
// process claims it first).
import type { AnyDb } from './schema-parts.js';

export async function up(db: AnyDb): Promise<void> {
  await db.schema
    .alterTable('pages')
    .addColumn('publish_uptime_history', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema
    .alterTable('organizations')
    .addColumn('monthly_report', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema.alterTable('organizations').addColumn('monthly_report_month', 'text').execute();
}

export async function down(db: AnyDb): Promise<void> {
  await db.schema.alterTable('organizations').dropColumn('monthly_report_month').execute();
  await db.schema.alterTable('organizations').dropColumn('monthly_report').execute();
  await db.schema.alterTable('pages').dropColumn('publish_uptime_history').execute();
}
