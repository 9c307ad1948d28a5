// Check results and their hourly and daily rollups: the shapes the store keeps and the arithmetic of a bucket.
import type { CheckSource } from './monitor-type.js';

export const HOUR_MS = 3_600_000;
export const DAY_MS = 86_400_000;

/** A result as it is stored: one row of history. */
export interface CheckRow {
  monitorId: string;
  checkedAt: number;
  ok: boolean;
  /** The monitor showed as degraded with this result (counted in the bucket). */
  degraded: boolean;
  latencyMs: number | null;
  message: string | null;
  error: string | null;
  data: Record<string, unknown> | null;
  source: CheckSource;
  /** Id a relay gives a result so a replayed batch is stored once. */
  resultId: string | null;
}

export interface StoredCheck extends Omit<CheckRow, 'degraded' | 'resultId'> {
  id: number;
}

export type BucketPeriod = 'hour' | 'day';
export const BUCKET_PERIOD_MS: Record<BucketPeriod, number> = { hour: HOUR_MS, day: DAY_MS };

/** The sums of one monitor's checks over one period, as stored; `start` is the period's first millisecond (UTC). */
export interface BucketSums {
  monitorId: string;
  start: number;
  count: number;
  upCount: number;
  degradedCount: number;
  latencyCount: number;
  latencySum: number;
  latencyMin: number | null;
  latencyMax: number | null;
  playersCount: number;
  playersSum: number;
  playersMin: number | null;
  playersMax: number | null;
  /** Checks with a latency per bin of LATENCY_BIN_UPPER_MS. */
  latencyHist: number[];
}

/** A bucket as read: averages instead of sums. */
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
  playersMin: number | null;
  playersMax: number | null;
  /** Checks with a latency per bin of LATENCY_BIN_UPPER_MS (domain/latency-histogram.ts reads percentiles off it). */
  latencyHist: number[];
}

/** Just the counts of a bucket: what uptime and the daily strip need. */
export type BucketCount = Pick<Bucket, 'monitorId' | 'start' | 'count' | 'upCount' | 'degradedCount'>;

/** The buckets of one period that these checks fall in, each holding the sums of its checks. */
export function rollUp(checks: readonly CheckRow[], period: BucketPeriod): BucketSums[] {
  const ms = BUCKET_PERIOD_MS[period];
  const buckets = new Map<string, BucketSums>();
  for (const c of checks) {
    const start = Math.floor(c.checkedAt / ms) * ms;
    const id = `${c.monitorId}\u0000${start}`;
    let b = buckets.get(id);
    if (!b) {
      b = emptyBucket(c.monitorId, start);
      buckets.set(id, b);
    }
    addCheck(b, c);
  }
  return [...buckets.values()];
}

export function emptyBucket(monitorId: string, start: number): BucketSums {
  return {
    monitorId,
    start,
    count: 0,
    upCount: 0,
    degradedCount: 0,
    latencyCount: 0,
    latencySum: 0,
    latencyMin: null,
    latencyMax: null,
    playersCount: 0,
    playersSum: 0,
    playersMin: null,
    playersMax: null,
    latencyHist: new Array<number>(LATENCY_BIN_UPPER_MS.length).fill(0),
  };
}

function addCheck(b: BucketSums, c: CheckRow): void {
  b.count++;
  if (c.ok) b.upCount++;
  if (c.ok && c.degraded) b.degradedCount++;
  if (c.latencyMs !== null) {
    b.latencyCount++;
    b.latencySum += c.latencyMs;
    b.latencyMin = b.latencyMin === null ? c.latencyMs : Math.min(b.latencyMin, c.latencyMs);
    b.latencyMax = b.latencyMax === null ? c.latencyMs : Math.max(b.latencyMax, c.latencyMs);
    b.latencyHist[latencyBin(c.latencyMs)]!++;
  }
  const players = c.data?.players;
  if (typeof players === 'number' && Number.isFinite(players)) {
    b.playersCount++;
    b.playersSum += players;
    b.playersMin = b.playersMin === null ? players : Math.min(b.playersMin, players);
    b.playersMax = b.playersMax === null ? players : Math.max(b.playersMax, players);
  }
}

/**
 * Latency histogram of a bucket: bin i counts the checks with latency ≤ LATENCY_BIN_UPPER_MS[i] (and above the bin
 * before); the last bin counts everything slower. Percentiles (p50, p95) per hour or day are read off it, so they
 * outlive the raw checks. The store keeps one integer column per bin (latency_hist_<i>), summed on upsert.
 */
export const LATENCY_BIN_UPPER_MS = [
  5,
  10,
  20,
  35,
  50,
  75,
  100,
  150,
  200,
  300,
  500,
  750,
  1000,
  2000,
  5000,
  Number.POSITIVE_INFINITY,
] as const;

/** The bin of a latency: the first whose upper bound it does not pass (the last bin takes everything slower). */
export function latencyBin(latencyMs: number): number {
  let bin = 0;
  while (latencyMs > LATENCY_BIN_UPPER_MS[bin]!) bin++;
  return bin;
}
