// Player alerts (issue 36): a monitor's rules on its live data (`player_alerts`, JSON, null for none) and the state of
// their conditions (`player_alerts_state`, JSON: since when each holds, whether it alerted, the last version and map),
// kept on the monitor so a restart neither fires an alert again nor forgets a condition that has been holding.
import type { AnyDb } from './schema-parts.js';

export async function up(db: AnyDb): Promise<void> {
  await db.schema.alterTable('monitors').addColumn('player_alerts', 'text').execute();
  await db.schema.alterTable('monitors').addColumn('player_alerts_state', 'text').execute();
}

export async function down(db: AnyDb): Promise<void> {
  await db.schema.alterTable('monitors').dropColumn('player_alerts_state').execute();
  await db.schema.alterTable('monitors').dropColumn('player_alerts').execute();
}
