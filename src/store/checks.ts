// Check results and their hourly and daily rollups; buckets are updated in the same transaction as the checks.
import { SqliteAdapter, sql } from 'kysely';
import type { CheckSource, MonitorState } from '../domain/monitor-type.js';
import { type Db, type SqliteStatement, sqliteHandle } from './connect.js';
import type { CheckBucketsTable } from './tables.js';

export interface CheckRow {
  monitorId: string;
  checkedAt: number;
  ok: boolean;
  degraded: boolean;
  latencyMs: number | null;
  message: string | null;
  error: string | null;
  data: Record<string, unknown> | null;
  source: CheckSource;
  resultId: string | null;
}

export interface StoredCheck extends Omit<CheckRow, 'degraded' | 'resultId'> {
  id: number;
}

export type BucketTable = 'check_buckets_hourly' | 'check_buckets_daily';
export const HOUR_MS = 3_600_000;
export const DAY_MS = 86_400_000;

/** Rows per INSERT statement: keeps SQLite under its bound-parameter limit. */
const INSERT_CHUNK = 500;

/** A check as a row of `checks`; the key order is the column order of the insert. */
function checkValues(c: CheckRow) {
  return {
    monitor_id: c.monitorId,
    checked_at: c.checkedAt,
    ok: c.ok ? 1 : 0,
    latency_ms: c.latencyMs,
    message: c.message,
    error: c.error,
    data: c.data === null ? null : JSON.stringify(c.data),
    source: c.source,
    result_id: c.resultId,
  };
}

function insertChecksQuery(db: Db, rows: ReturnType<typeof checkValues>[]) {
  return db
    .insertInto('checks')
    .values(rows)
    .onConflict((oc) => oc.columns(['monitor_id', 'result_id']).where('result_id', 'is not', null).doNothing());
}

/** `fast`: the SQLite statements of the store (sqliteWrites of the store's db) when `db` is one of its transactions. */
export async function insertChecks(db: Db, checks: CheckRow[], fast = sqliteWrites(db)): Promise<void> {
  if (fast) {
    for (const c of checks) fast.insertCheck.run(Object.values(checkValues(c)));
    return;
  }
  for (let i = 0; i < checks.length; i += INSERT_CHUNK) await insertChecksQuery(db, checks.slice(i, i + INSERT_CHUNK).map(checkValues)).execute();
}

/** Result ids of this monitor already stored, among those given (relay replays are stored once). */
export async function existingResultIds(db: Db, monitorId: string, resultIds: string[]): Promise<Set<string>> {
  if (resultIds.length === 0) return new Set();
  const rows = await db
    .selectFrom('checks')
    .select('result_id')
    .where('monitor_id', '=', monitorId)
    .where('result_id', 'in', resultIds)
    .execute();
  return new Set(rows.map((r) => r.result_id as string));
}

/** Adds checks to the hourly and daily buckets they fall in. */
export async function addToBuckets(db: Db, checks: CheckRow[], fast = sqliteWrites(db)): Promise<void> {
  for (const [table, period] of [
    ['check_buckets_hourly', HOUR_MS],
    ['check_buckets_daily', DAY_MS],
  ] as const) {
    const buckets = new Map<string, CheckBucketsTable>();
    for (const c of checks) {
      const start = Math.floor(c.checkedAt / period) * period;
      const id = `${c.monitorId}\u0000${start}`;
      let b = buckets.get(id);
      if (!b) {
        b = emptyBucket(c.monitorId, start);
        buckets.set(id, b);
      }
      addCheck(b, c);
    }
    const rows = [...buckets.values()];
    if (fast) for (const row of rows) fast.upsertBucket[table].run(Object.values(row));
    else for (let i = 0; i < rows.length; i += INSERT_CHUNK) await upsertBucketsQuery(db, table, rows.slice(i, i + INSERT_CHUNK)).execute();
  }
}

function emptyBucket(monitorId: string, start: number): CheckBucketsTable {
  return {
    monitor_id: monitorId,
    bucket_start: start,
    count: 0,
    up_count: 0,
    degraded_count: 0,
    latency_count: 0,
    latency_sum: 0,
    latency_min: null,
    latency_max: null,
    players_count: 0,
    players_sum: 0,
    players_max: null,
  };
}

function addCheck(b: CheckBucketsTable, c: CheckRow): void {
  b.count++;
  if (c.ok) b.up_count++;
  if (c.ok && c.degraded) b.degraded_count++;
  if (c.latencyMs !== null) {
    b.latency_count++;
    b.latency_sum += c.latencyMs;
    b.latency_min = b.latency_min === null ? c.latencyMs : Math.min(b.latency_min, c.latencyMs);
    b.latency_max = b.latency_max === null ? c.latencyMs : Math.max(b.latency_max, c.latencyMs);
  }
  const players = c.data?.players;
  if (typeof players === 'number' && Number.isFinite(players)) {
    b.players_count++;
    b.players_sum += players;
    b.players_max = b.players_max === null ? players : Math.max(b.players_max, players);
  }
}

function upsertBucketsQuery(db: Db, table: BucketTable, rows: CheckBucketsTable[]) {
  // min/max written as CASE so the same SQL runs on SQLite (min/max) and PostgreSQL (least/greatest).
  const lower = (col: 'latency_min' | 'players_max', op: '<' | '>') =>
    sql<number | null>`case when excluded.${sql.ref(col)} is null then ${sql.ref(`${table}.${col}`)}
      when ${sql.ref(`${table}.${col}`)} is null or excluded.${sql.ref(col)} ${sql.raw(op)} ${sql.ref(`${table}.${col}`)} then excluded.${sql.ref(col)}
      else ${sql.ref(`${table}.${col}`)} end`;
  return db
    .insertInto(table)
    .values(rows)
    .onConflict((oc) =>
      oc.columns(['monitor_id', 'bucket_start']).doUpdateSet({
        count: sql`${sql.ref(`${table}.count`)} + excluded.count`,
        up_count: sql`${sql.ref(`${table}.up_count`)} + excluded.up_count`,
        degraded_count: sql`${sql.ref(`${table}.degraded_count`)} + excluded.degraded_count`,
        latency_count: sql`${sql.ref(`${table}.latency_count`)} + excluded.latency_count`,
        latency_sum: sql`${sql.ref(`${table}.latency_sum`)} + excluded.latency_sum`,
        latency_min: lower('latency_min', '<'),
        latency_max: sql`case when excluded.latency_max is null then ${sql.ref(`${table}.latency_max`)}
          when ${sql.ref(`${table}.latency_max`)} is null or excluded.latency_max > ${sql.ref(`${table}.latency_max`)} then excluded.latency_max
          else ${sql.ref(`${table}.latency_max`)} end`,
        players_count: sql`${sql.ref(`${table}.players_count`)} + excluded.players_count`,
        players_sum: sql`${sql.ref(`${table}.players_sum`)} + excluded.players_sum`,
        players_max: lower('players_max', '>'),
      }),
    );
}

/** The state columns of a monitor that every check may move. */
export interface MonitorStateRow {
  id: string;
  state: MonitorState;
  state_since: number;
  failure_streak: number;
  last_check_at: number | null;
  last_result: string | null;
}

function updateStateQuery(db: Db, m: MonitorStateRow) {
  // The key order is the order of the parameters: the SET values, then the id.
  return db
    .updateTable('monitors')
    .set({ state: m.state, state_since: m.state_since, failure_streak: m.failure_streak, last_check_at: m.last_check_at, last_result: m.last_result })
    .where('id', '=', m.id);
}

/** Writes the state columns of monitors that checks moved. */
export async function updateMonitorStates(db: Db, monitors: MonitorStateRow[], fast = sqliteWrites(db)): Promise<void> {
  if (fast) {
    for (const m of monitors) fast.updateState.run([m.state, m.state_since, m.failure_streak, m.last_check_at, m.last_result, m.id]);
    return;
  }
  if (db.getExecutor().adapter instanceof SqliteAdapter) {
    // A SQLite transaction whose caller did not pass the store's statements: the same update through Kysely.
    for (const m of monitors) await updateStateQuery(db, m).execute();
    return;
  }
  // PostgreSQL: one statement per chunk rather than a round trip per monitor.
  for (let i = 0; i < monitors.length; i += INSERT_CHUNK) {
    const chunk = monitors.slice(i, i + INSERT_CHUNK);
    await sql`update monitors set state = v.state, state_since = v.state_since, failure_streak = v.failure_streak,
        last_check_at = v.last_check_at, last_result = v.last_result
      from (values ${sql.join(chunk.map((m) => sql`(${m.id}, ${m.state}, ${m.state_since}::bigint, ${m.failure_streak}::integer, ${m.last_check_at}::bigint, ${m.last_result})`))})
        as v(id, state, state_since, failure_streak, last_check_at, last_result)
      where monitors.id = v.id`.execute(db);
  }
}

/**
 * On SQLite the writes of an ingest commit run as prepared statements, one execution per row, on the connection that
 * holds the transaction. The SQL is Kysely's, compiled once from the same builders the PostgreSQL path executes; only
 * building and compiling a multi-row statement for every commit is skipped, which was a quarter of the CPU of a
 * heartbeat. Each row costs a few microseconds in SQLite itself.
 */
export interface SqliteWrites {
  insertCheck: SqliteStatement;
  upsertBucket: Record<BucketTable, SqliteStatement>;
  updateState: SqliteStatement;
}

const writesByHandle = new WeakMap<object, SqliteWrites>();

/** The prepared writes of a SQLite store's db (not of a transaction: pass the store's db); undefined on PostgreSQL. */
export function sqliteWrites(db: Db): SqliteWrites | undefined {
  const handle = sqliteHandle(db);
  if (!handle) return undefined;
  let writes = writesByHandle.get(handle);
  if (!writes) {
    const statement = (query: { compile(): { sql: string; parameters: readonly unknown[] } }, parameters: number) => {
      const compiled = query.compile();
      // The rows are passed positionally: a builder that added a parameter of its own would shift them.
      if (compiled.parameters.length !== parameters) throw new Error(`unexpected parameters in ${compiled.sql}`);
      return handle.prepare(compiled.sql);
    };
    const sampleCheck = checkValues({ monitorId: '', checkedAt: 0, ok: true, degraded: false, latencyMs: null, message: null, error: null, data: null, source: 'edge', resultId: null });
    const sampleBucket = emptyBucket('', 0);
    writes = {
      insertCheck: statement(insertChecksQuery(db, [sampleCheck]), Object.keys(sampleCheck).length),
      upsertBucket: {
        check_buckets_hourly: statement(upsertBucketsQuery(db, 'check_buckets_hourly', [sampleBucket]), Object.keys(sampleBucket).length),
        check_buckets_daily: statement(upsertBucketsQuery(db, 'check_buckets_daily', [sampleBucket]), Object.keys(sampleBucket).length),
      },
      updateState: statement(updateStateQuery(db, { id: '', state: 'unknown', state_since: 0, failure_streak: 0, last_check_at: null, last_result: null }), 6),
    };
    writesByHandle.set(handle, writes);
  }
  return writes;
}

export interface Bucket {
  monitorId: string;
  start: number;
  count: number;
  upCount: number;
  degradedCount: number;
  latencyAvg: number | null;
  latencyMin: number | null;
  latencyMax: number | null;
  playersAvg: number | null;
  playersMax: number | null;
}

export async function listBuckets(db: Db, table: BucketTable, monitorIds: string[], from: number, to: number): Promise<Bucket[]> {
  if (monitorIds.length === 0) return [];
  const rows = await db
    .selectFrom(table)
    .selectAll()
    .where('monitor_id', 'in', monitorIds)
    .where('bucket_start', '>=', from)
    .where('bucket_start', '<', to)
    .orderBy('bucket_start')
    .execute();
  return rows.map((r) => ({
    monitorId: r.monitor_id,
    start: r.bucket_start,
    count: r.count,
    upCount: r.up_count,
    degradedCount: r.degraded_count,
    latencyAvg: r.latency_count > 0 ? r.latency_sum / r.latency_count : null,
    latencyMin: r.latency_min,
    latencyMax: r.latency_max,
    playersAvg: r.players_count > 0 ? r.players_sum / r.players_count : null,
    playersMax: r.players_max,
  }));
}

export interface BucketCount {
  monitorId: string;
  start: number;
  count: number;
  upCount: number;
  degradedCount: number;
}

/** Just the counts of buckets, unordered: what uptime and the daily strip need, read as cheaply as the store allows. */
export async function listBucketCounts(db: Db, table: BucketTable, monitorIds: string[], from: number, to: number): Promise<BucketCount[]> {
  if (monitorIds.length === 0) return [];
  const rows = await db
    .selectFrom(table)
    .select(['monitor_id', 'bucket_start', 'count', 'up_count', 'degraded_count'])
    .where('monitor_id', 'in', monitorIds)
    .where('bucket_start', '>=', from)
    .where('bucket_start', '<', to)
    .execute();
  return rows.map((r) => ({ monitorId: r.monitor_id, start: r.bucket_start, count: r.count, upCount: r.up_count, degradedCount: r.degraded_count }));
}

/** Checks of a monitor in [from, to), newest first, paginated by (checked_at, id) cursor. */
export async function listChecks(
  db: Db,
  monitorId: string,
  from: number,
  to: number,
  limit: number,
  before?: { checkedAt: number; id: number },
): Promise<StoredCheck[]> {
  let query = db
    .selectFrom('checks')
    .selectAll()
    .where('monitor_id', '=', monitorId)
    .where('checked_at', '>=', from)
    .where('checked_at', '<', to);
  if (before)
    query = query.where((eb) =>
      eb.or([eb('checked_at', '<', before.checkedAt), eb.and([eb('checked_at', '=', before.checkedAt), eb('id', '<', before.id)])]),
    );
  const rows = await query.orderBy('checked_at', 'desc').orderBy('id', 'desc').limit(limit).execute();
  return rows.map((r) => ({
    id: Number(r.id),
    monitorId: r.monitor_id,
    checkedAt: r.checked_at,
    ok: r.ok === 1,
    latencyMs: r.latency_ms,
    message: r.message,
    error: r.error,
    data: r.data === null ? null : (JSON.parse(r.data) as Record<string, unknown>),
    source: r.source,
  }));
}

/** Deletes up to `batch` of one monitor's checks older than `before` (through the monitor/time index); returns how many went. */
export async function pruneChecks(db: Db, monitorId: string, before: number, batch: number): Promise<number> {
  const result = await db
    .deleteFrom('checks')
    .where('id', 'in', (eb) =>
      eb.selectFrom('checks').select('id').where('monitor_id', '=', monitorId).where('checked_at', '<', before).limit(batch),
    )
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}

/** Deletes one monitor's buckets older than `before` (a monitor has at most a few dozen expiring per day). */
export async function pruneBuckets(db: Db, table: BucketTable, monitorId: string, before: number): Promise<number> {
  const result = await db.deleteFrom(table).where('monitor_id', '=', monitorId).where('bucket_start', '<', before).executeTakeFirst();
  return Number(result.numDeletedRows);
}
