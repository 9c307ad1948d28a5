// Monitor states: where each monitor stands (what ingest reads and moves on), and its history of state changes.
// Ingest writes the states themselves with its checks (checks.ts). Contract: test/contracts/store-monitor-states.contract.test.ts.
import { type CompiledQuery, type Selectable, sql } from 'kysely';
import {
  type Monitor,
  type MonitorStateChange,
  type MonitorStateRow,
  type ShownState,
  vantageOf,
} from '../../domain/monitor.js';
import type { MonitorStateCache } from '../dialects/sqlite/state-cache.js';
import type { Db, Dialect, MonitorStateChangesTable, MonitorsTable } from '../tables.js';
import { inChunks } from './in-chunks.js';
import { STATE_FIELDS, toMonitor } from './monitor-rows.js';
import { fromColumns } from './rows.js';

/** What a monitor's latest result left: its state, and the result as stored (JSON), or null before the first. */
export interface MonitorActivity {
  id: string;
  organizationId: string;
  state: Monitor['state'];
  lastCheckAt: number | null;
  lastResult: string | null;
}

export interface MonitorStateRepository {
  /**
   * The state and state settings of these monitors, for ingest. Inside a transaction they stay locked until it ends
   * (where the database locks rows), so results committed by another process for the same monitors wait their turn.
   */
  find(ids: readonly string[]): Promise<MonitorStateRow[]>;
  /** The state and latest result of these monitors: cluster mode compares them between polls while Redis is down. */
  listActivity(ids: readonly string[]): Promise<MonitorActivity[]>;
  /** An organization's enabled monitors that are down now, by key. */
  listDown(organizationId: string): Promise<Monitor[]>;
  /** Records state changes (ingest's, in its commit; pause and resume): the monitor's state history. */
  appendChanges(changes: readonly MonitorStateChange[]): Promise<void>;
  /** A monitor's state changes, newest first (by time, then id), after the `before` cursor when given. */
  listChanges(
    monitorId: string,
    page: { limit: number; before?: { at: number; id: string } | undefined },
  ): Promise<MonitorStateChange[]>;
  /** Deletes these monitors' state changes older than `before` (retention); returns how many went. */
  pruneChanges(monitorIds: readonly string[], before: number): Promise<number>;
}

/** State changes per insert: 6 parameters each keeps SQLite under its bound-parameter limit. */
const CHANGES_PER_INSERT = 500;

export const STATE_COLUMNS = [
  'id',
  'organization_id',
  'retries',
  'degraded_latency_ms',
  'state',
  'state_since',
  'failure_streak',
  'last_check_at',
  'last_result',
  'player_alerts',
  'player_alerts_state',
  'run_on',
  'relay_id',
  'locations',
  'quorum',
  'interval_sec',
  'timeout_ms',
  'location_results',
] as const;
export type StateRow = Pick<Selectable<MonitorsTable>, (typeof STATE_COLUMNS)[number]>;
/** find's query, compiled once per dialect, row locking and number of ids (at most IDS_PER_QUERY of each). */
const STATE_QUERIES = new Map<string, CompiledQuery<StateRow>>();

/** A single-location monitor's row carries neither `vantage` nor `locationResults` (as before migration 0028). */
export const toStateRow = (r: StateRow): MonitorStateRow => {
  const row: MonitorStateRow = fromColumns(r, [
    'id',
    'organizationId',
    ...STATE_FIELDS,
    'lastResult',
    'playerAlerts',
    'playerAlertsState',
  ]);
  const vantage = vantageOf({
    runOn: r.run_on,
    relayId: r.relay_id,
    locations: r.locations === null ? null : (JSON.parse(r.locations) as string[]),
    quorum: r.quorum,
    intervalSec: r.interval_sec,
    timeoutMs: r.timeout_ms,
  });
  if (vantage) row.vantage = vantage;
  if (r.location_results !== null) row.locationResults = r.location_results;
  return row;
};

const toStateChange = (r: Selectable<MonitorStateChangesTable>): MonitorStateChange => ({
  id: r.id,
  monitorId: r.monitor_id,
  at: Number(r.at),
  from: r.from_state as ShownState,
  to: r.to_state as ShownState,
  message: r.message,
});

export function monitorStateRepository(
  db: Db,
  {
    locksRows,
    dialect,
    stateCache,
  }: { locksRows: boolean; dialect: Dialect; stateCache?: MonitorStateCache | undefined },
): MonitorStateRepository {
  return {
    find: (ids) => {
      const sorted = [...ids].sort();
      // Ingest's commits (in a transaction) take the states the last one wrote, while nothing else has written (SQLite).
      return stateCache && db.isTransaction ? stateCache.states(sorted, readStates) : readStates(sorted);
    },
    listActivity: (ids) =>
      inChunks(ids, async (chunk) => {
        const rows = await db
          .selectFrom('monitors')
          .select(['id', 'organization_id', 'state', 'last_check_at', 'last_result'])
          .where('id', 'in', chunk)
          .execute();
        return rows.map((r) => ({
          id: r.id,
          organizationId: r.organization_id,
          state: r.state,
          lastCheckAt: r.last_check_at,
          lastResult: r.last_result,
        }));
      }),
    async listDown(organizationId) {
      const rows = await db
        .selectFrom('monitors')
        .selectAll()
        .where('organization_id', '=', organizationId)
        .where('enabled', '=', 1)
        .where('state', '=', 'down')
        .orderBy('key')
        .execute();
      return rows.map(toMonitor);
    },
    async appendChanges(changes) {
      for (let i = 0; i < changes.length; i += CHANGES_PER_INSERT) {
        const rows = changes.slice(i, i + CHANGES_PER_INSERT).map((c) => ({
          id: c.id,
          monitor_id: c.monitorId,
          at: c.at,
          from_state: c.from,
          to_state: c.to,
          message: c.message,
        }));
        await db.insertInto('monitor_state_changes').values(rows).execute();
      }
    },
    async listChanges(monitorId, { limit, before }) {
      let query = db.selectFrom('monitor_state_changes').selectAll().where('monitor_id', '=', monitorId);
      if (before)
        query = query.where((eb) =>
          eb.or([eb('at', '<', before.at), eb.and([eb('at', '=', before.at), eb('id', '<', before.id)])]),
        );
      return (await query.orderBy('at', 'desc').orderBy('id', 'desc').limit(limit).execute()).map(toStateChange);
    },
    async pruneChanges(monitorIds, before) {
      const deleted = await inChunks(monitorIds, async (chunk) => {
        const result = await db
          .deleteFrom('monitor_state_changes')
          .where('monitor_id', 'in', chunk)
          .where('at', '<', before)
          .executeTakeFirst();
        return [Number(result.numDeletedRows)];
      });
      return deleted.reduce((sum, n) => sum + n, 0);
    },
  };

  /**
   * In order, and locked until the commit where rows can be: the caller writes what it computes from them, and another
   * process committing results for the same monitors must wait rather than have its update overwritten.
   */
  function readStates(sorted: string[]): Promise<MonitorStateRow[]> {
    // PostgreSQL takes the ids as one array: the same statement for every commit, however many monitors it names.
    if (dialect === 'postgres') return readStatesByArray(sorted);
    return inChunks(sorted, async (chunk) => {
      const locking = locksRows && db.isTransaction;
      // Every ingest commit asks this: the query is built and compiled once per dialect, locking and chunk length.
      const key = `${dialect}\u0000${locking}\u0000${chunk.length}`;
      let compiled = STATE_QUERIES.get(key);
      if (!compiled) {
        compiled = db
          .selectFrom('monitors')
          .select(STATE_COLUMNS)
          .where('id', 'in', chunk)
          .orderBy('id')
          .$if(locking, (query) => query.forUpdate())
          .compile();
        if (compiled.parameters.length !== chunk.length) throw new Error(`unexpected parameters in ${compiled.sql}`);
        STATE_QUERIES.set(key, compiled);
      }
      const { rows } = await db.executeQuery<StateRow>({ ...compiled, parameters: chunk });
      return rows.map(toStateRow);
    });
  }

  async function readStatesByArray(sorted: string[]): Promise<MonitorStateRow[]> {
    // No key update: the key stays, so the key-share locks a journal fold's inserts take on the monitors they name
    // (foreign keys) never wait for an ingest commit, nor it for them (dialects/postgres/check-journal.ts).
    const locking = locksRows && db.isTransaction ? sql` for no key update` : sql``;
    const { rows } = await sql<StateRow>`select ${sql.join(STATE_COLUMNS.map((c) => sql.ref(c)))} from monitors
      where id = any(${sorted}::text[]) order by id${locking}`.execute(db);
    return rows.map(toStateRow);
  }
}
