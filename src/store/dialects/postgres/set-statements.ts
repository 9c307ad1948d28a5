// PostgreSQL's set-based statements for an ingest commit and a journal fold: each table's rows travel as one array per
// column (`unnest`), so a statement's text is the same whatever the number of rows (parsed and planned cheaply,
// nothing compiled per row), and several go in one statement as CTEs: one round trip.
import { type RawBuilder, sql } from 'kysely';
import { type BucketSums, type CheckRow, rollUp } from '../../../domain/check.js';
import type { MonitorStateRow } from '../../../domain/monitor.js';
import { BUCKET_TABLES, type BucketTable, LATENCY_HIST_COLUMNS } from '../../check-statements.js';
import type { Db } from '../../tables.js';

/** The columns of `checks` an insert writes, with the type of each one's array. */
const CHECK_COLUMNS = sql.raw(
  'monitor_id, checked_at, ok, latency_ms, message, error, data, source, result_id, location',
);

/**
 * No conflict target: `checks` is partitioned by day (0034), so its one unique key a check can hit is (monitor_id,
 * result_id, checked_at), a replayed relay result (same id, same time); ingest already skipped the ids it found stored.
 */
export function insertChecks(checks: readonly CheckRow[]): RawBuilder<unknown> {
  const column = <T>(pick: (c: CheckRow) => T) => checks.map(pick);
  return sql`insert into checks (${CHECK_COLUMNS})
    select * from unnest(${column((c) => c.monitorId)}::text[], ${column((c) => c.checkedAt)}::bigint[],
      ${column((c) => (c.ok ? 1 : 0))}::integer[], ${column((c) => c.latencyMs)}::integer[],
      ${column((c) => c.message)}::text[], ${column((c) => c.error)}::text[],
      ${column((c) => (c.data === null ? null : JSON.stringify(c.data)))}::text[], ${column((c) => c.source)}::text[],
      ${column((c) => c.resultId)}::text[], ${column((c) => c.location ?? null)}::text[])
    on conflict do nothing`;
}

/** Inserts the checks and returns those stored: a replayed relay result is skipped. */
export async function insertChecksReturning(db: Db, checks: readonly CheckRow[]): Promise<readonly CheckRow[]> {
  const { rows } = await sql<{
    monitor_id: string;
    result_id: string | null;
  }>`${insertChecks(checks)} returning monitor_id, result_id`.execute(db);
  const keys = new Set(rows.filter((r) => r.result_id !== null).map((r) => `${r.monitor_id}\u0000${r.result_id}`));
  // A result id twice in one batch is inserted once: the first of the pair takes the key.
  return checks.filter((c) => c.resultId === null || keys.delete(`${c.monitorId}\u0000${c.resultId}`));
}

/** Counts add up; the extremes keep the lower or higher (least/greatest ignore nulls). */
const BUCKET_SUMS = [
  'count',
  'up_count',
  'degraded_count',
  'latency_count',
  'latency_sum',
  'players_count',
  'players_sum',
  ...LATENCY_HIST_COLUMNS,
];
const BUCKET_COLUMNS = sql.raw(
  ['monitor_id', 'bucket_start', ...BUCKET_SUMS, 'latency_min', 'latency_max', 'players_min', 'players_max'].join(', '),
);

export function upsertBuckets(table: BucketTable, buckets: readonly BucketSums[]): RawBuilder<unknown> {
  const column = <T>(pick: (b: BucketSums) => T) => buckets.map(pick);
  const sums: Record<string, (b: BucketSums) => number> = {
    count: (b) => b.count,
    up_count: (b) => b.upCount,
    degraded_count: (b) => b.degradedCount,
    latency_count: (b) => b.latencyCount,
    latency_sum: (b) => b.latencySum,
    players_count: (b) => b.playersCount,
    players_sum: (b) => b.playersSum,
    ...Object.fromEntries(LATENCY_HIST_COLUMNS.map((name, bin) => [name, (b: BucketSums) => b.latencyHist[bin] ?? 0])),
  };
  const arrays = [
    sql`${column((b) => b.monitorId)}::text[]`,
    sql`${column((b) => b.start)}::bigint[]`,
    ...BUCKET_SUMS.map((name) => sql`${column(sums[name] as (b: BucketSums) => number)}::bigint[]`),
    sql`${column((b) => b.latencyMin)}::integer[]`,
    sql`${column((b) => b.latencyMax)}::integer[]`,
    sql`${column((b) => b.playersMin)}::integer[]`,
    sql`${column((b) => b.playersMax)}::integer[]`,
  ];
  const t = sql.table(table);
  const extreme = (name: string, fn: 'least' | 'greatest') =>
    sql`${sql.ref(name)} = ${sql.raw(fn)}(${t}.${sql.ref(name)}, excluded.${sql.ref(name)})`;
  const updates = [
    ...BUCKET_SUMS.map((name) => sql`${sql.ref(name)} = ${t}.${sql.ref(name)} + excluded.${sql.ref(name)}`),
    extreme('latency_min', 'least'),
    extreme('latency_max', 'greatest'),
    extreme('players_min', 'least'),
    extreme('players_max', 'greatest'),
  ];
  return sql`insert into ${t} (${BUCKET_COLUMNS}) select * from unnest(${sql.join(arrays)})
    on conflict (monitor_id, bucket_start) do update set ${sql.join(updates)}`;
}

/** UPDATE … FROM unnest(…): a monitor deleted meanwhile is simply not matched, it cannot come back. */
export function updateStates(states: readonly MonitorStateRow[]): RawBuilder<unknown> {
  const column = <T>(pick: (m: MonitorStateRow) => T) => states.map(pick);
  return sql`update monitors set state = v.state, state_since = v.state_since, failure_streak = v.failure_streak,
      last_check_at = v.last_check_at, last_result = v.last_result, player_alerts_state = v.player_alerts_state,
      location_results = v.location_results
    from unnest(${column((m) => m.id)}::text[], ${column((m) => m.state)}::text[],
      ${column((m) => m.stateSince)}::bigint[], ${column((m) => m.failureStreak)}::integer[],
      ${column((m) => m.lastCheckAt)}::bigint[], ${column((m) => m.lastResult)}::text[],
      ${column((m) => m.playerAlertsState)}::text[], ${column((m) => m.locationResults ?? null)}::text[])
      as v(id, state, state_since, failure_streak, last_check_at, last_result, player_alerts_state, location_results)
    where monitors.id = v.id`;
}

/** The checks' journal rows (check-journal.ts): what a fold needs to copy them into `checks` and count them. */
export function insertJournal(checks: readonly CheckRow[]): RawBuilder<unknown> {
  const column = <T>(pick: (c: CheckRow) => T) => checks.map(pick);
  return sql`insert into check_journal
      (monitor_id, checked_at, ok, degraded, latency_ms, message, error, data, source, result_id)
    select * from unnest(${column((c) => c.monitorId)}::text[], ${column((c) => c.checkedAt)}::bigint[],
      ${column((c) => (c.ok ? 1 : 0))}::integer[], ${column((c) => (c.degraded ? 1 : 0))}::integer[],
      ${column((c) => c.latencyMs)}::integer[], ${column((c) => c.message)}::text[], ${column((c) => c.error)}::text[],
      ${column((c) => (c.data === null ? null : JSON.stringify(c.data)))}::text[], ${column((c) => c.source)}::text[],
      ${column((c) => c.resultId)}::text[])
    on conflict (monitor_id, result_id) where result_id is not null do nothing`;
}

/**
 * The CTEs adding checks to their hourly and daily buckets, each table's rows in key order: two statements upserting
 * overlapping buckets (two folds of a cluster) then wait for each other in one order, never in a circle.
 */
export function bucketParts(checks: readonly CheckRow[]): RawBuilder<unknown>[] {
  if (checks.length === 0) return [];
  const byKey = (a: BucketSums, b: BucketSums) =>
    a.monitorId < b.monitorId ? -1 : a.monitorId > b.monitorId ? 1 : a.start - b.start;
  return (['hour', 'day'] as const).map((period) =>
    part(`b_${period}`, upsertBuckets(BUCKET_TABLES[period], rollUp(checks, period).sort(byKey))),
  );
}

/** A CTE of a statement `runParts` makes. */
export function part(name: string, statement: RawBuilder<unknown>): RawBuilder<unknown> {
  return sql`${sql.raw(name)} as (${statement})`;
}

/** One statement of CTEs, or nothing when there are none. */
export function runParts(db: Db, parts: readonly RawBuilder<unknown>[]): Promise<unknown> {
  return parts.length === 0 ? Promise.resolve() : sql`with ${sql.join(parts)} select 1`.execute(db);
}
