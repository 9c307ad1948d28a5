// Which monitors a relay runs: the enabled relay monitors whose relay_id is the relay's.
import type { Db } from './connect.js';
import { type Monitor, toMonitor } from './monitors.js';

/** The enabled monitors assigned to a relay, by id (a stable order, so the config's ETag only changes with its content). */
export async function listRelayMonitors(db: Db, relayId: string): Promise<Monitor[]> {
  const rows = await db
    .selectFrom('monitors')
    .selectAll()
    .where('relay_id', '=', relayId)
    .where('run_on', '=', 'relay')
    .where('enabled', '=', 1)
    .orderBy('id')
    .execute();
  return rows.map(toMonitor);
}

/** Ids of the enabled monitors assigned to a relay: the only ones it may submit results for. */
export async function relayMonitorIds(db: Db, relayId: string): Promise<Set<string>> {
  const rows = await db
    .selectFrom('monitors')
    .select('id')
    .where('relay_id', '=', relayId)
    .where('run_on', '=', 'relay')
    .where('enabled', '=', 1)
    .execute();
  return new Set(rows.map((r) => r.id));
}
