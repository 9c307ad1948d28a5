// Game changes: the recent version, map and wipe changes of monitors, written by ingest with their events and read by
// the pages that announce them. Kept short: the newest GAME_CHANGE_LIMITS.keptPerMonitor per monitor, and by age.
import type { Selectable } from 'kysely';
import { GAME_CHANGE_LIMITS, type GameChange, type GameChangeField } from '../../domain/player-alerts.js';
import type { Db, GameChangesTable } from '../tables.js';

export interface GameChangeRepository {
  /**
   * Stores these changes (one already stored, by id, is left as it is: a retried commit) and drops each monitor's
   * changes beyond the newest GAME_CHANGE_LIMITS.keptPerMonitor.
   */
  record(changes: readonly GameChange[]): Promise<void>;
  /** The changes of these monitors since `since`, newest first, at most `limit`. */
  recent(monitorIds: readonly string[], since: number, limit: number): Promise<GameChange[]>;
  /** Deletes the changes older than `before`; returns how many. */
  prune(before: number): Promise<number>;
}

const toChange = (r: Selectable<GameChangesTable>): GameChange => ({
  id: r.id,
  organizationId: r.organization_id,
  monitorId: r.monitor_id,
  field: r.field as GameChangeField,
  from: r.from_value,
  to: r.to_value,
  at: Number(r.at),
});

export function gameChangeRepository(db: Db): GameChangeRepository {
  return {
    async record(changes) {
      if (changes.length === 0) return;
      await db
        .insertInto('game_changes')
        .values(
          changes.map((c) => ({
            id: c.id,
            organization_id: c.organizationId,
            monitor_id: c.monitorId,
            field: c.field,
            from_value: c.from,
            to_value: c.to,
            at: c.at,
          })),
        )
        .onConflict((oc) => oc.column('id').doNothing())
        .execute();
      for (const monitorId of new Set(changes.map((c) => c.monitorId)))
        await db
          .deleteFrom('game_changes')
          .where('monitor_id', '=', monitorId)
          .where('id', 'not in', (eb) =>
            eb
              .selectFrom('game_changes')
              .select('id')
              .where('monitor_id', '=', monitorId)
              .orderBy('at', 'desc')
              .orderBy('id', 'desc')
              .limit(GAME_CHANGE_LIMITS.keptPerMonitor),
          )
          .execute();
    },
    async recent(monitorIds, since, limit) {
      if (monitorIds.length === 0 || limit <= 0) return [];
      const rows = await db
        .selectFrom('game_changes')
        .selectAll()
        .where('monitor_id', 'in', [...monitorIds])
        .where('at', '>=', since)
        .orderBy('at', 'desc')
        .orderBy('id', 'desc')
        .limit(limit)
        .execute();
      return rows.map(toChange);
    },
    async prune(before) {
      const result = await db.deleteFrom('game_changes').where('at', '<', before).executeTakeFirst();
      return Number(result.numDeletedRows);
    },
  };
}
