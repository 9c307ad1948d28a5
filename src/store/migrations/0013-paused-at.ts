// When a monitor was paused (issue 34): the dashboard said "paused since" the time the monitor last changed state.
// Monitors paused before this migration count as paused since their latest recorded pause, or their last change.
import { sql } from 'kysely';
import { type AnyDb, time } from './schema-parts.js';

export async function up(db: AnyDb): Promise<void> {
  await db.schema.alterTable('monitors').addColumn('paused_at', time).execute();
  await db
    .updateTable('monitors')
    .set({
      paused_at: sql`coalesce((select max(c.at) from monitor_state_changes c where c.monitor_id = monitors.id and c.to_state = 'paused'), monitors.updated_at)`,
    })
    .where('enabled', '=', 0)
    .execute();
}

export async function down(db: AnyDb): Promise<void> {
  await db.schema.alterTable('monitors').dropColumn('paused_at').execute();
}
