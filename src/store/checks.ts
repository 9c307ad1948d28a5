// Check results and their hourly and daily rollups; buckets are updated in the same transaction as the checks.
import { sql } from 'kysely';
import type { CheckSource } from '../domain/monitor-type.js';
import type { Db } from './connect.js';
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

export async function insertChecks(db: Db, checks: CheckRow[]): Promise<void> {
  for (let i = 0; i < checks.length; i += INSERT_CHUNK) {
    const chunk = checks.slice(i, i + INSERT_CHUNK);
    await db
      .insertInto('checks')
      .values(
        chunk.map((c) => ({
          monitor_id: c.monitorId,
          checked_at: c.checkedAt,
          ok: c.ok ? 1 : 0,
          latency_ms: c.latencyMs,
          message: c.message,
          error: c.error,
          data: c.data === null ? null : JSON.stringify(c.data),
          source: c.source,
          result_id: c.resultId,
        })),
      )
      .onConflict((oc) => oc.columns(['monitor_id', 'result_id']).where('result_id', 'is not', null).doNothing())
      .execute();
  }
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
export async function addToBuckets(db: Db, checks: CheckRow[]): Promise<void> {
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
    for (let i = 0; i < rows.length; i += INSERT_CHUNK) await upsertBuckets(db, table, rows.slice(i, i + INSERT_CHUNK));
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

async function upsertBuckets(db: Db, table: BucketTable, rows: CheckBucketsTable[]): Promise<void> {
  // min/max written as CASE so the same SQL runs on SQLite (min/max) and PostgreSQL (least/greatest).
  const lower = (col: 'latency_min' | 'players_max', op: '<' | '>') =>
    sql<number | null>`case when excluded.${sql.ref(col)} is null then ${sql.ref(`${table}.${col}`)}
      when ${sql.ref(`${table}.${col}`)} is null or excluded.${sql.ref(col)} ${sql.raw(op)} ${sql.ref(`${table}.${col}`)} then excluded.${sql.ref(col)}
      else ${sql.ref(`${table}.${col}`)} end`;
  await db
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
    )
    .execute();
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
