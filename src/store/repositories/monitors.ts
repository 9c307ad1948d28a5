// Monitors: what to check (type + config), where it runs, and its current state and latest result.
import { type CompiledQuery, type Selectable, sql } from 'kysely';
import type { LatestResult, Monitor, MonitorSpec, MonitorStateChange, MonitorStateRow, ShownState } from '../../domain/monitor.js';
import type { MonitorType } from '../../domain/monitor-type.js';
import type { MonitorStateCache } from '../dialects/sqlite/state-cache.js';
import type { Dialect, MonitorRepository, WatchedMonitor } from '../store.js';
import type { Db, MonitorStateChangesTable, MonitorsTable } from '../tables.js';
import { countOf } from './count.js';
import { monitorQuery } from './monitor-query.js';

/** Ids per `in (…)` list: keeps SQLite under its bound-parameter limit. */
const IDS_PER_QUERY = 500;

export function toMonitor(r: Selectable<MonitorsTable>): Monitor {
  return {
    id: r.id,
    organizationId: r.organization_id,
    key: r.key,
    name: r.name,
    type: r.type as MonitorType,
    config: JSON.parse(r.config) as Record<string, unknown>,
    intervalSec: r.interval_sec,
    timeoutMs: r.timeout_ms,
    runOn: r.run_on,
    relayId: r.relay_id,
    pushTokenPrefix: r.push_token_prefix,
    enabled: r.enabled === 1,
    retries: r.retries,
    degradedLatencyMs: r.degraded_latency_ms,
    state: r.state,
    stateSince: r.state_since,
    failureStreak: r.failure_streak,
    lastCheckAt: r.last_check_at,
    lastResult: r.last_result === null ? null : (JSON.parse(r.last_result) as LatestResult),
    secretsSetAt: r.secrets_set_at,
    notify: notifyOf(r.notify),
    tags: JSON.parse(r.tags) as string[],
    managedBy: r.managed_by,
    createdAt: r.created_at,
    updatedAt: r.updated_at,
  };
}

function specColumns(spec: MonitorSpec) {
  return {
    key: spec.key,
    name: spec.name,
    type: spec.type,
    config: JSON.stringify(spec.config),
    interval_sec: spec.intervalSec,
    timeout_ms: spec.timeoutMs,
    run_on: spec.runOn,
    relay_id: spec.relayId,
    enabled: spec.enabled ? 1 : 0,
    retries: spec.retries,
    degraded_latency_ms: spec.degradedLatencyMs,
    // Left as it is when the spec does not say.
    notify: spec.notify === undefined ? undefined : storedNotify(spec.notify),
    tags: spec.tags === undefined ? undefined : JSON.stringify(spec.tags),
  };
}

/** The channel keys a monitor or page names, as stored (JSON array; null: none). */
export function notifyOf(json: string | null): string[] | null {
  return json === null ? null : (JSON.parse(json) as string[]);
}

export function storedNotify(keys: readonly string[] | null): string | null {
  return keys === null || keys.length === 0 ? null : JSON.stringify(keys);
}

const toStateChange = (r: Selectable<MonitorStateChangesTable>): MonitorStateChange => ({
  id: r.id,
  monitorId: r.monitor_id,
  at: Number(r.at),
  from: r.from_state as ShownState,
  to: r.to_state as ShownState,
  message: r.message,
});

/** State changes per insert: 6 parameters each keeps SQLite under its bound-parameter limit. */
const CHANGES_PER_INSERT = 500;

const WATCHED = ['id', 'organization_id', 'state', 'last_check_at'] as const;
const toWatched = (r: Pick<Selectable<MonitorsTable>, (typeof WATCHED)[number]>): WatchedMonitor => ({
  id: r.id,
  organizationId: r.organization_id,
  state: r.state,
  lastCheckAt: r.last_check_at,
});

type StateRow = Pick<Selectable<MonitorsTable>, 'id' | 'organization_id' | 'retries' | 'degraded_latency_ms' | 'state' | 'state_since' | 'failure_streak' | 'last_check_at' | 'last_result'>;
/** findStates' query, compiled once per dialect, row locking and number of ids (at most IDS_PER_QUERY of each). */
const STATE_QUERIES = new Map<string, CompiledQuery<StateRow>>();

/** Runs a query per chunk of ids and concatenates the rows. */
async function inChunks<T>(ids: readonly string[], query: (chunk: string[]) => Promise<T[]>): Promise<T[]> {
  const out: T[] = [];
  for (let i = 0; i < ids.length; i += IDS_PER_QUERY) out.push(...(await query(ids.slice(i, i + IDS_PER_QUERY))));
  return out;
}

export function monitorRepository(
  db: Db,
  { locksRows, dialect, stateCache }: { locksRows: boolean; dialect: Dialect; stateCache?: MonitorStateCache | undefined },
): MonitorRepository {
  const all = () => db.selectFrom('monitors').selectAll();
  const enabledRelayMonitors = (relayId: string) =>
    db.selectFrom('monitors').where('relay_id', '=', relayId).where('run_on', '=', 'relay').where('enabled', '=', 1);
  return {
    async list(organizationId) {
      return (await all().where('organization_id', '=', organizationId).orderBy('key').execute()).map(toMonitor);
    },
    query: monitorQuery(db, dialect),
    idsOf: (organizationId, ids) =>
      inChunks(ids, async (chunk) =>
        (await db.selectFrom('monitors').select('id').where('organization_id', '=', organizationId).where('id', 'in', chunk).execute()).map((r) => r.id),
      ),
    count: (organizationId) => countOf(db.selectFrom('monitors').where('organization_id', '=', organizationId)),
    async findById(id) {
      const row = await all().where('id', '=', id).executeTakeFirst();
      return row && toMonitor(row);
    },
    findByIds: (ids) => inChunks(ids, async (chunk) => (await all().where('id', 'in', chunk).execute()).map(toMonitor)),
    async findByKey(organizationId, key) {
      const row = await all().where('organization_id', '=', organizationId).where('key', '=', key).executeTakeFirst();
      return row && toMonitor(row);
    },
    async findByPushTokenHash(hash) {
      const row = await all().where('push_token_hash', '=', hash).executeTakeFirst();
      return row && { ...toMonitor(row), pushTokenHash: row.push_token_hash as string };
    },
    async pushTokenHash(id) {
      return (await db.selectFrom('monitors').select('push_token_hash').where('id', '=', id).executeTakeFirst())?.push_token_hash ?? null;
    },
    async insert(monitor, now) {
      await db
        .insertInto('monitors')
        .values({
          id: monitor.id,
          organization_id: monitor.organizationId,
          ...specColumns(monitor),
          push_token_hash: monitor.pushToken?.hash ?? null,
          push_token_prefix: monitor.pushToken?.prefix ?? null,
          state: 'unknown',
          state_since: now,
          failure_streak: 0,
          last_check_at: null,
          last_result: null,
          secrets_set_at: monitor.secretsSetAt ?? null,
          notify: storedNotify(monitor.notify ?? null),
          tags: JSON.stringify(monitor.tags ?? []),
          managed_by: monitor.managedBy,
          created_at: now,
          updated_at: now,
        })
        .execute();
    },
    async updateSpec(id, spec, managedBy, now) {
      await db.updateTable('monitors').set({ ...specColumns(spec), managed_by: managedBy, updated_at: now }).where('id', '=', id).execute();
    },
    async setPushToken(id, token, now) {
      await db
        .updateTable('monitors')
        .set({ push_token_hash: token?.hash ?? null, push_token_prefix: token?.prefix ?? null, updated_at: now })
        .where('id', '=', id)
        .execute();
    },
    async markSecretsSet(id, at) {
      await db.updateTable('monitors').set({ secrets_set_at: at }).where('id', '=', id).execute();
    },
    async delete(id) {
      await db.deleteFrom('monitors').where('id', '=', id).execute();
    },
    async keysOnRelay(relayId) {
      return (await db.selectFrom('monitors').select('key').where('relay_id', '=', relayId).orderBy('key').execute()).map((r) => r.key);
    },
    async listRunningOnRelay(relayId) {
      return (await enabledRelayMonitors(relayId).selectAll().orderBy('id').execute()).map(toMonitor);
    },
    async idsRunningOnRelay(relayId) {
      return new Set((await enabledRelayMonitors(relayId).select('id').execute()).map((r) => r.id));
    },
    async listIds() {
      return (await db.selectFrom('monitors').select('id').orderBy('id').execute()).map((r) => r.id);
    },
    async listVersions(runOn) {
      const rows = await db.selectFrom('monitors').select(['id', 'updated_at']).where('enabled', '=', 1).where('run_on', '=', runOn).execute();
      return rows.map((r) => ({ id: r.id, updatedAt: r.updated_at }));
    },
    listScheduled: (runOn, ids) =>
      inChunks(ids, async (chunk) => {
        const rows = await db
          .selectFrom('monitors')
          .select(['id', 'organization_id', 'key', 'type', 'config', 'interval_sec', 'timeout_ms', 'updated_at', 'last_check_at'])
          .where('id', 'in', chunk)
          .where('enabled', '=', 1)
          .where('run_on', '=', runOn)
          .execute();
        return rows.map((r) => ({
          id: r.id,
          organizationId: r.organization_id,
          key: r.key,
          type: r.type,
          config: JSON.parse(r.config) as unknown,
          intervalSec: r.interval_sec,
          timeoutMs: r.timeout_ms,
          updatedAt: r.updated_at,
          lastCheckAt: r.last_check_at,
        }));
      }),
    async listSilent(now, intervals) {
      const rows = await db
        .selectFrom('monitors')
        .select(WATCHED)
        .where('enabled', '=', 1)
        .where('run_on', 'in', ['edge', 'relay'])
        .where('state', '!=', 'unknown')
        // In floating point: PostgreSQL would multiply two integers as int4, which a daily monitor's silence
        // overflows (86 400 s × 30 intervals × 1000 > 2^31), and `intervals` need not be whole.
        .where(sql<number>`last_check_at + interval_sec * cast(${intervals * 1000} as double precision)`, '<', now)
        .execute();
      return rows.map(toWatched);
    },
    async listKnownOnRelay(relayId) {
      return (await enabledRelayMonitors(relayId).select(WATCHED).where('state', '!=', 'unknown').execute()).map(toWatched);
    },
    async listPushed() {
      const rows = await db
        .selectFrom('monitors')
        .select(['id', 'config', 'last_check_at'])
        .where('enabled', '=', 1)
        .where('run_on', '=', 'push')
        .where('last_check_at', 'is not', null)
        .execute();
      return rows.map((r) => ({ id: r.id, config: JSON.parse(r.config) as Record<string, unknown>, lastCheckAt: r.last_check_at as number }));
    },
    async listNotify(organizationId) {
      const rows = await db.selectFrom('monitors').select(['id', 'notify']).where('organization_id', '=', organizationId).where('notify', 'is not', null).execute();
      return rows.map((r) => ({ id: r.id, notify: notifyOf(r.notify) ?? [] }));
    },
    async listDown(organizationId) {
      return (await all().where('organization_id', '=', organizationId).where('enabled', '=', 1).where('state', '=', 'down').orderBy('key').execute()).map(toMonitor);
    },
    listActivity: (ids) =>
      inChunks(ids, async (chunk) => {
        const rows = await db.selectFrom('monitors').select(['id', 'organization_id', 'state', 'last_check_at', 'last_result']).where('id', 'in', chunk).execute();
        return rows.map((r) => ({ id: r.id, organizationId: r.organization_id, state: r.state, lastCheckAt: r.last_check_at, lastResult: r.last_result }));
      }),
    async appendStateChanges(changes) {
      for (let i = 0; i < changes.length; i += CHANGES_PER_INSERT) {
        const rows = changes.slice(i, i + CHANGES_PER_INSERT).map((c) => ({ id: c.id, monitor_id: c.monitorId, at: c.at, from_state: c.from, to_state: c.to, message: c.message }));
        await db.insertInto('monitor_state_changes').values(rows).execute();
      }
    },
    async listStateChanges(monitorId, { limit, before }) {
      let query = db.selectFrom('monitor_state_changes').selectAll().where('monitor_id', '=', monitorId);
      if (before) query = query.where((eb) => eb.or([eb('at', '<', before.at), eb.and([eb('at', '=', before.at), eb('id', '<', before.id)])]));
      return (await query.orderBy('at', 'desc').orderBy('id', 'desc').limit(limit).execute()).map(toStateChange);
    },
    async pruneStateChanges(monitorId, before) {
      const result = await db.deleteFrom('monitor_state_changes').where('monitor_id', '=', monitorId).where('at', '<', before).executeTakeFirst();
      return Number(result.numDeletedRows);
    },
    findStates: (ids) => {
      const sorted = [...ids].sort();
      // Ingest's commits (in a transaction) take the states the last one wrote, while nothing else has written (SQLite).
      return stateCache && db.isTransaction ? stateCache.states(sorted, readStates) : readStates(sorted);
    },
  };

  function readStates(sorted: string[]): Promise<MonitorStateRow[]> {
    return (
      // In order, and locked until the commit where rows can be: the caller writes what it computes from them, and
      // another process committing results for the same monitors must wait rather than have its update overwritten.
      inChunks(sorted, async (chunk) => {
        const locking = locksRows && db.isTransaction;
        // Every ingest commit asks this: the query is built and compiled once per dialect, locking and chunk length.
        const key = `${dialect}\u0000${locking}\u0000${chunk.length}`;
        let compiled = STATE_QUERIES.get(key);
        if (!compiled) {
          compiled = db
            .selectFrom('monitors')
            .select(['id', 'organization_id', 'retries', 'degraded_latency_ms', 'state', 'state_since', 'failure_streak', 'last_check_at', 'last_result'])
            .where('id', 'in', chunk)
            .orderBy('id')
            .$if(locking, (query) => query.forUpdate())
            .compile();
          if (compiled.parameters.length !== chunk.length) throw new Error(`unexpected parameters in ${compiled.sql}`);
          STATE_QUERIES.set(key, compiled);
        }
        const { rows } = await db.executeQuery<StateRow>({ ...compiled, parameters: chunk });
        return rows.map((r) => ({
          id: r.id,
          organizationId: r.organization_id,
          retries: r.retries,
          degradedLatencyMs: r.degraded_latency_ms,
          state: r.state,
          stateSince: r.state_since,
          failureStreak: r.failure_streak,
          lastCheckAt: r.last_check_at,
          lastResult: r.last_result,
        }));
      })
    );
  }
}
