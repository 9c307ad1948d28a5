// Check history and its hourly and daily rollups: reads, pruning, and the commit writes of the store's dialect.

import { PostgresAdapter, sql } from 'kysely';
import type {
  Bucket,
  BucketCount,
  BucketPeriod,
  BucketSums,
  CheckRow,
  LocationBucketSums,
  StoredCheck,
} from '../../domain/check.js';
import type { MonitorStateRow } from '../../domain/monitor.js';
import type { CheckSource } from '../../domain/monitor-type.js';
import {
  BUCKET_TABLES,
  bucketValues,
  type CheckJournal,
  type CheckWriter,
  LATENCY_HIST_COLUMNS,
} from '../check-statements.js';
import type { Db } from '../tables.js';
import { inChunks } from './in-chunks.js';

/** Bucket rows per insert (29 parameters each): under SQLite's and PostgreSQL's bound-parameter limits. */
const BUCKETS_PER_INSERT = 500;

/** A relay result's identity: its monitor and the id the relay gave it. */
export interface ResultKey {
  monitorId: string;
  resultId: string;
}

/**
 * PostgreSQL: each pair looked up through the unique index of monitor, id and time (0036 dropped the index of ids
 * alone), in the partitions of `checkedBetween` only. SQLite keeps its index of ids and is asked by id.
 */
async function storedPairs(
  db: Db,
  results: readonly ResultKey[],
  checkedBetween: { from: number; to: number } | undefined,
): Promise<{ monitor_id: string; result_id: string }[]> {
  const keys = sql`unnest(${results.map((k) => k.monitorId)}::text[], ${results.map((k) => k.resultId)}::text[])
    as k(monitor_id, result_id)`;
  const during = checkedBetween
    ? sql`and c.checked_at >= ${checkedBetween.from} and c.checked_at <= ${checkedBetween.to}`
    : sql``;
  const { rows } = await sql<{ monitor_id: string; result_id: string }>`
    select c.monitor_id, c.result_id from ${keys}
      join checks c on c.monitor_id = k.monitor_id and c.result_id = k.result_id ${during}
    union all
    select j.monitor_id, j.result_id from ${keys}
      join check_journal j on j.monitor_id = k.monitor_id and j.result_id = k.result_id`.execute(db);
  return rows;
}

export interface CheckRepository {
  /** Stores checks (a relay's replayed result id once), adds them to their buckets and writes the monitors' new state, as one batch. */
  write(checks: readonly CheckRow[], states: readonly MonitorStateRow[]): Promise<void>;
  /**
   * `monitorId\u0000resultId` of these relay results (a monitor and a result id each) already stored; with
   * `checkedBetween`, among the checks of those times only (a replayed result keeps its time): on PostgreSQL, only
   * those days' partitions are read.
   */
  storedResultKeys(results: readonly ResultKey[], checkedBetween?: { from: number; to: number }): Promise<Set<string>>;
  /** Checks of a monitor in [from, to), newest first, paginated by (checkedAt, id) cursor. */
  list(
    monitorId: string,
    range: { from: number; to: number; limit: number; before?: { checkedAt: number; id: number } | undefined },
  ): Promise<StoredCheck[]>;
  /** Buckets of the monitors starting in [from, to), oldest first. */
  buckets(period: BucketPeriod, monitorIds: readonly string[], from: number, to: number): Promise<Bucket[]>;
  /** Just the counts, unordered: what uptime and the daily strip need, read as cheaply as the store allows. */
  bucketCounts(period: BucketPeriod, monitorIds: readonly string[], from: number, to: number): Promise<BucketCount[]>;
  /** A multi-location monitor's hourly buckets per location starting in [from, to), oldest first (as stored: sums). */
  locationBuckets(monitorId: string, from: number, to: number): Promise<LocationBucketSums[]>;
  /** Deletes up to `batch` of one monitor's checks older than `before`; returns how many went. */
  prune(monitorId: string, before: number, batch: number): Promise<number>;
  /** Deletes these monitors' buckets of this period older than `before` (a few statements for any number). */
  pruneBuckets(period: BucketPeriod, monitorIds: readonly string[], before: number): Promise<number>;
  /**
   * History brought from another tool (`warden import uptime-kuma --history`): one monitor's buckets of this period that
   * start before `before` are deleted and these written instead, in one transaction, so a second run replaces the first
   * rather than adding to it. `before` is a period start no later than the monitor's own first check.
   */
  replaceBucketsBefore(
    period: BucketPeriod,
    monitorId: string,
    before: number,
    buckets: readonly BucketSums[],
  ): Promise<void>;
}

/** The columns of a bucket row every read of buckets maps the same way. */
const toBucketCount = (r: {
  monitor_id: string;
  bucket_start: number;
  count: number;
  up_count: number;
  degraded_count: number;
}): BucketCount => ({
  monitorId: r.monitor_id,
  start: r.bucket_start,
  count: r.count,
  upCount: r.up_count,
  degradedCount: r.degraded_count,
});

/** `journal`: the dialect's check journal, folded before every read of history (checks or buckets) so reads see every commit. */
export function checkRepository(db: Db, writer: CheckWriter, journal?: CheckJournal): CheckRepository {
  const settled = async () => {
    if (journal) await journal.settle(db);
  };
  return { ...checkHistory(db, writer, settled), ...bucketHistory(db, settled) };
}

type BucketMethods = 'buckets' | 'bucketCounts' | 'locationBuckets' | 'pruneBuckets' | 'replaceBucketsBefore';

/** The checks themselves: written in batches with the monitors' states, listed by cursor, pruned by age. */
function checkHistory(db: Db, writer: CheckWriter, settled: () => Promise<void>): Omit<CheckRepository, BucketMethods> {
  const postgres = db.getExecutor().adapter instanceof PostgresAdapter;
  return {
    async write(checks, states) {
      if (checks.length === 0 && states.length === 0) return;
      // One batch even when the caller holds no transaction: a failure part way must not leave half of it behind.
      // On SQLite this also makes the writer wait for the connection like any query, rather than run its
      // statements inside a transaction another caller holds open on it.
      if (db.isTransaction) await writer(db, checks, states);
      else await db.transaction().execute((trx) => writer(trx, checks, states));
    },
    async storedResultKeys(results, checkedBetween) {
      // Stored, or journaled and not folded yet (relay results are journaled too): one statement, one snapshot, in
      // which a fold's rows are in one table or the other.
      const wanted = new Set(results.map((k) => `${k.monitorId}\u0000${k.resultId}`));
      const rows = postgres
        ? await storedPairs(db, results, checkedBetween)
        : await inChunks(
            results.map((k) => k.resultId),
            (chunk) =>
              db
                .selectFrom('checks')
                .select(['monitor_id', 'result_id'])
                .where('result_id', 'in', chunk)
                .$call((q) =>
                  checkedBetween
                    ? q.where('checked_at', '>=', checkedBetween.from).where('checked_at', '<=', checkedBetween.to)
                    : q,
                )
                .unionAll(
                  db.selectFrom('check_journal').select(['monitor_id', 'result_id']).where('result_id', 'in', chunk),
                )
                .execute(),
          );
      return new Set(rows.map((r) => `${r.monitor_id}\u0000${r.result_id}`).filter((key) => wanted.has(key)));
    },
    async list(monitorId, { from, to, limit, before }) {
      await settled();
      let query = db
        .selectFrom('checks')
        .selectAll()
        .where('monitor_id', '=', monitorId)
        .where('checked_at', '>=', from)
        .where('checked_at', '<', to);
      if (before)
        query = query.where((eb) =>
          eb.or([
            eb('checked_at', '<', before.checkedAt),
            eb.and([eb('checked_at', '=', before.checkedAt), eb('id', '<', before.id)]),
          ]),
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
        source: r.source as CheckSource,
        ...(r.location === null ? {} : { location: r.location }),
      }));
    },
    async prune(monitorId, before, batch) {
      await settled();
      // Through the monitor/time index, in batches: short transactions leave room for writers in between.
      const result = await db
        .deleteFrom('checks')
        .where('id', 'in', (eb) =>
          eb
            .selectFrom('checks')
            .select('id')
            .where('monitor_id', '=', monitorId)
            .where('checked_at', '<', before)
            .limit(batch),
        )
        .executeTakeFirst();
      return Number(result.numDeletedRows);
    },
  };
}

/** The hourly and daily rollups: read by range, pruned by age, replaced by an import. */
function bucketHistory(db: Db, settled: () => Promise<void>): Pick<CheckRepository, BucketMethods> {
  const inRange = (period: keyof typeof BUCKET_TABLES, monitorIds: readonly string[], from: number, to: number) =>
    db
      .selectFrom(BUCKET_TABLES[period])
      .where('monitor_id', 'in', monitorIds)
      .where('bucket_start', '>=', from)
      .where('bucket_start', '<', to);
  return {
    async buckets(period, monitorIds, from, to) {
      if (monitorIds.length === 0) return [];
      await settled();
      const rows = await inRange(period, monitorIds, from, to)
        .selectAll()
        .orderBy('bucket_start')
        .orderBy('monitor_id')
        .execute();
      return rows.map((r) => ({
        ...toBucketCount(r),
        latencyAvg: r.latency_count > 0 ? r.latency_sum / r.latency_count : null,
        latencyMin: r.latency_min,
        latencyMax: r.latency_max,
        playersAvg: r.players_count > 0 ? r.players_sum / r.players_count : null,
        playersMin: r.players_min,
        playersMax: r.players_max,
        latencyHist: LATENCY_HIST_COLUMNS.map((column) => Number(r[column])),
      }));
    },
    async bucketCounts(period, monitorIds, from, to) {
      if (monitorIds.length === 0) return [];
      await settled();
      const rows = await inRange(period, monitorIds, from, to)
        .select(['monitor_id', 'bucket_start', 'count', 'up_count', 'degraded_count'])
        .execute();
      return rows.map(toBucketCount);
    },
    async locationBuckets(monitorId, from, to) {
      await settled();
      const rows = await db
        .selectFrom('check_buckets_location_hourly')
        .selectAll()
        .where('monitor_id', '=', monitorId)
        .where('bucket_start', '>=', from)
        .where('bucket_start', '<', to)
        .orderBy('bucket_start')
        .orderBy('location')
        .execute();
      return rows.map((r) => ({
        monitorId: r.monitor_id,
        location: r.location,
        start: Number(r.bucket_start),
        count: r.count,
        upCount: r.up_count,
        latencyCount: r.latency_count,
        latencySum: Number(r.latency_sum),
        latencyMin: r.latency_min,
        latencyMax: r.latency_max,
      }));
    },
    async pruneBuckets(period, monitorIds, before) {
      await settled();
      const deleted = await inChunks(monitorIds, async (chunk) => {
        const result = await db
          .deleteFrom(BUCKET_TABLES[period])
          .where('monitor_id', 'in', chunk)
          .where('bucket_start', '<', before)
          .executeTakeFirst();
        // The per-location hours go with the monitor's hours.
        const locations =
          period === 'hour'
            ? await db
                .deleteFrom('check_buckets_location_hourly')
                .where('monitor_id', 'in', chunk)
                .where('bucket_start', '<', before)
                .executeTakeFirst()
            : undefined;
        return [Number(result.numDeletedRows) + Number(locations?.numDeletedRows ?? 0)];
      });
      return deleted.reduce((sum, n) => sum + n, 0);
    },
    async replaceBucketsBefore(period, monitorId, before, buckets) {
      await settled();
      const table = BUCKET_TABLES[period];
      const rows = buckets.filter((b) => b.monitorId === monitorId && b.start < before).map(bucketValues);
      const replace = async (trx: Db) => {
        await trx.deleteFrom(table).where('monitor_id', '=', monitorId).where('bucket_start', '<', before).execute();
        for (let i = 0; i < rows.length; i += BUCKETS_PER_INSERT)
          await trx
            .insertInto(table)
            .values(rows.slice(i, i + BUCKETS_PER_INSERT))
            .execute();
      };
      if (db.isTransaction) await replace(db);
      else await db.transaction().execute(replace);
    },
  };
}
