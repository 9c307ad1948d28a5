// The writes of an ingest commit as Kysely builders, written once: PostgreSQL executes them per commit, SQLite compiles them once.
import { sql } from 'kysely';
import type { BucketPeriod, BucketSums, CheckRow, LocationBucketSums } from '../domain/check.js';
import type { MonitorStateRow } from '../domain/monitor.js';
import type { CheckBucketsTable, Db } from './tables.js';

export const BUCKET_TABLES = { hour: 'check_buckets_hourly', day: 'check_buckets_daily' } as const satisfies Record<
  BucketPeriod,
  string
>;
export type BucketTable = (typeof BUCKET_TABLES)[BucketPeriod];

/** The latency histogram's columns, bin by bin (domain/check.ts LATENCY_BIN_UPPER_MS). */
export const LATENCY_HIST_COLUMNS = [
  'latency_hist_0',
  'latency_hist_1',
  'latency_hist_2',
  'latency_hist_3',
  'latency_hist_4',
  'latency_hist_5',
  'latency_hist_6',
  'latency_hist_7',
  'latency_hist_8',
  'latency_hist_9',
  'latency_hist_10',
  'latency_hist_11',
  'latency_hist_12',
  'latency_hist_13',
  'latency_hist_14',
  'latency_hist_15',
] as const satisfies readonly (keyof CheckBucketsTable)[];
type LatencyHistColumn = (typeof LATENCY_HIST_COLUMNS)[number];

/** A check as a row of `checks`; the key order is the column order of the insert. */
export function checkValues(c: CheckRow) {
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
    location: c.location ?? null,
  };
}

/** A bucket as a row of its table; the key order is the column order of the insert (and of bucketParameters). */
export function bucketValues(b: BucketSums) {
  const h = b.latencyHist;
  return {
    monitor_id: b.monitorId,
    bucket_start: b.start,
    count: b.count,
    up_count: b.upCount,
    degraded_count: b.degradedCount,
    latency_count: b.latencyCount,
    latency_sum: b.latencySum,
    latency_min: b.latencyMin,
    latency_max: b.latencyMax,
    players_count: b.playersCount,
    players_sum: b.playersSum,
    players_max: b.playersMax,
    players_min: b.playersMin,
    latency_hist_0: h[0] ?? 0,
    latency_hist_1: h[1] ?? 0,
    latency_hist_2: h[2] ?? 0,
    latency_hist_3: h[3] ?? 0,
    latency_hist_4: h[4] ?? 0,
    latency_hist_5: h[5] ?? 0,
    latency_hist_6: h[6] ?? 0,
    latency_hist_7: h[7] ?? 0,
    latency_hist_8: h[8] ?? 0,
    latency_hist_9: h[9] ?? 0,
    latency_hist_10: h[10] ?? 0,
    latency_hist_11: h[11] ?? 0,
    latency_hist_12: h[12] ?? 0,
    latency_hist_13: h[13] ?? 0,
    latency_hist_14: h[14] ?? 0,
    latency_hist_15: h[15] ?? 0,
  } satisfies Record<LatencyHistColumn, number> & Record<string, unknown>;
}

/**
 * The same row as positional parameters, in the same order, without building an object per bucket: SQLite's prepared
 * upsert runs once per bucket of every commit (the hot path of pushes).
 */
export function bucketParameters(b: BucketSums): unknown[] {
  return [
    b.monitorId,
    b.start,
    b.count,
    b.upCount,
    b.degradedCount,
    b.latencyCount,
    b.latencySum,
    b.latencyMin,
    b.latencyMax,
    b.playersCount,
    b.playersSum,
    b.playersMax,
    b.playersMin,
    ...b.latencyHist,
  ];
}

/** A relay's result id is stored once per monitor: a replayed one is skipped. */
export function insertChecksQuery(db: Db, rows: ReturnType<typeof checkValues>[]) {
  return db
    .insertInto('checks')
    .values(rows)
    .onConflict((oc) => oc.columns(['monitor_id', 'result_id']).where('result_id', 'is not', null).doNothing());
}

export function upsertBucketsQuery(db: Db, table: BucketTable, rows: ReturnType<typeof bucketValues>[]) {
  const column = (name: string) => sql.ref(`${table}.${name}`);
  const sum = (name: string) => sql<number>`${column(name)} + excluded.${sql.ref(name)}`;
  // min/max written as CASE so the same SQL runs on SQLite (min/max) and PostgreSQL (least/greatest).
  const extreme = (name: 'latency_min' | 'latency_max' | 'players_min' | 'players_max', op: '<' | '>') =>
    sql<number | null>`case when excluded.${sql.ref(name)} is null then ${column(name)}
      when ${column(name)} is null or excluded.${sql.ref(name)} ${sql.raw(op)} ${column(name)} then excluded.${sql.ref(name)}
      else ${column(name)} end`;
  return db
    .insertInto(table)
    .values(rows)
    .onConflict((oc) =>
      oc.columns(['monitor_id', 'bucket_start']).doUpdateSet({
        count: sum('count'),
        up_count: sum('up_count'),
        degraded_count: sum('degraded_count'),
        latency_count: sum('latency_count'),
        latency_sum: sum('latency_sum'),
        latency_min: extreme('latency_min', '<'),
        latency_max: extreme('latency_max', '>'),
        players_count: sum('players_count'),
        players_sum: sum('players_sum'),
        players_max: extreme('players_max', '>'),
        players_min: extreme('players_min', '<'),
        ...(Object.fromEntries(LATENCY_HIST_COLUMNS.map((name) => [name, sum(name)])) as Record<
          LatencyHistColumn,
          ReturnType<typeof sum>
        >),
      }),
    );
}

/** The state columns a result moves; the key order is the order of the parameters: the SET values, then the id. */
export function updateStateQuery(db: Db, m: MonitorStateRow) {
  return db
    .updateTable('monitors')
    .set({
      state: m.state,
      state_since: m.stateSince,
      failure_streak: m.failureStreak,
      last_check_at: m.lastCheckAt,
      last_result: m.lastResult,
      player_alerts_state: m.playerAlertsState,
      location_results: m.locationResults ?? null,
    })
    .where('id', '=', m.id);
}

/** A location's bucket as a row; the key order is the column order of the insert. */
export function locationBucketValues(b: LocationBucketSums) {
  return {
    monitor_id: b.monitorId,
    location: b.location,
    bucket_start: b.start,
    count: b.count,
    up_count: b.upCount,
    latency_count: b.latencyCount,
    latency_sum: b.latencySum,
    latency_min: b.latencyMin,
    latency_max: b.latencyMax,
  };
}

/** Adds to each location's hourly bucket (multi-location monitors only; see migration 0029). */
export function upsertLocationBucketsQuery(db: Db, rows: ReturnType<typeof locationBucketValues>[]) {
  const table = 'check_buckets_location_hourly';
  const column = (name: string) => sql.ref(`${table}.${name}`);
  const sum = (name: string) => sql<number>`${column(name)} + excluded.${sql.ref(name)}`;
  const extreme = (name: 'latency_min' | 'latency_max', op: '<' | '>') =>
    sql<number | null>`case when excluded.${sql.ref(name)} is null then ${column(name)}
      when ${column(name)} is null or excluded.${sql.ref(name)} ${sql.raw(op)} ${column(name)} then excluded.${sql.ref(name)}
      else ${column(name)} end`;
  return db
    .insertInto(table)
    .values(rows)
    .onConflict((oc) =>
      oc.columns(['monitor_id', 'location', 'bucket_start']).doUpdateSet({
        count: sum('count'),
        up_count: sum('up_count'),
        latency_count: sum('latency_count'),
        latency_sum: sum('latency_sum'),
        latency_min: extreme('latency_min', '<'),
        latency_max: extreme('latency_max', '>'),
      }),
    );
}

/** How one dialect writes an ingest commit: the checks, their buckets and the monitors' state; always called inside a transaction. */
export type CheckWriter = (db: Db, checks: readonly CheckRow[], states: readonly MonitorStateRow[]) => Promise<void>;

/**
 * Where a dialect keeps an ingest commit's checks before they reach `checks` and the buckets (SQLite:
 * dialects/sqlite/check-journal.ts); the check repository settles it before every read of history.
 */
export interface CheckJournal {
  /** Whether the journal takes this batch (the table exists: the database is migrated; the batch is not an import). */
  takes(checks: readonly CheckRow[]): boolean;
  /** Appends checks without a relay result id; synchronous, inside the caller's transaction on the connection. */
  append(checks: readonly CheckRow[]): void;
  /** Folds what is journaled before a read of history, inside the reader's transaction if it holds one. */
  settle(db: Db): Promise<void>;
  /** Folds what is left and stops the timer; the store closes the connection after it. */
  close(): Promise<void>;
}
