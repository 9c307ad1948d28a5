// Recurring maintenance (issue 35): a window's slots (RRULE or cron in a time zone, with a duration) as JSON, and the
// start of the latest occurrence whose "started" and "ended" notices were told, so each occurrence is told once.
import { type AnyDb, time } from './schema-parts.js';

export async function up(db: AnyDb): Promise<void> {
  await db.schema.alterTable('maintenance').addColumn('recurrence', 'text').execute();
  await db.schema.alterTable('maintenance').addColumn('started_occurrence', time).execute();
  await db.schema.alterTable('maintenance').addColumn('ended_occurrence', time).execute();
}

export async function down(db: AnyDb): Promise<void> {
  await db.schema.alterTable('maintenance').dropColumn('ended_occurrence').execute();
  await db.schema.alterTable('maintenance').dropColumn('started_occurrence').execute();
  await db.schema.alterTable('maintenance').dropColumn('recurrence').execute();
}
