// A monitor's expected restart (issue 36): recurring slots (RRULE or cron in a time zone, with a duration) during
// which the monitor counts as under maintenance; JSON, null for none. Evaluated on read, never stored as occurrences.
import type { AnyDb } from './schema-parts.js';

export async function up(db: AnyDb): Promise<void> {
  await db.schema.alterTable('monitors').addColumn('expected_restart', 'text').execute();
}

export async function down(db: AnyDb): Promise<void> {
  await db.schema.alterTable('monitors').dropColumn('expected_restart').execute();
}
