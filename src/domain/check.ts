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
  /** Where it ran, for a monitor with several locations ('edge' or a relay id); absent or null: its own place. */
  location?: string | null | undefined;
  /**
   * Whether the monitor's rollups count it up: a multi-location monitor's count the state its locations decided (not
   * down), not this location's own result; absent: `ok`.
   */
  countedUp?: boolean | undefined;
}

export interface StoredCheck extends Omit<CheckRow, 'degraded' | 'resultId' | 'location' | 'countedUp'> {
  id: number;
  /** Where it ran ('edge' or a relay id), for a monitor with several locations; absent: the monitor's own place. */
  location?: string;
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
  const up = c.countedUp ?? c.ok;
  b.count++;
  if (up) b.upCount++;
  if (up && c.degraded) b.degradedCount++;
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

/** One location's checks of a multi-location monitor over an hour, as stored (check_buckets_location_hourly). */
export interface LocationBucketSums {
  monitorId: string;
  location: string;
  start: number;
  count: number;
  upCount: number;
  latencyCount: number;
  latencySum: number;
  latencyMin: number | null;
  latencyMax: number | null;
}

/** The hourly buckets per location of the checks that name one (those of multi-location monitors). */
export function rollUpLocations(checks: readonly CheckRow[]): LocationBucketSums[] {
  const buckets = new Map<string, LocationBucketSums>();
  for (const c of checks) {
    if (c.location == null) continue;
    const start = Math.floor(c.checkedAt / HOUR_MS) * HOUR_MS;
    const id = `${c.monitorId}\u0000${c.location}\u0000${start}`;
    let b = buckets.get(id);
    if (!b) {
      b = emptyLocationBucket(c.monitorId, c.location, start);
      buckets.set(id, b);
    }
    b.count++;
    if (c.ok) b.upCount++;
    if (c.latencyMs !== null) {
      b.latencyCount++;
      b.latencySum += c.latencyMs;
      b.latencyMin = b.latencyMin === null ? c.latencyMs : Math.min(b.latencyMin, c.latencyMs);
      b.latencyMax = b.latencyMax === null ? c.latencyMs : Math.max(b.latencyMax, c.latencyMs);
    }
  }
  return [...buckets.values()];
}

export function emptyLocationBucket(monitorId: string, location: string, start: number): LocationBucketSums {
  const sums = { count: 0, upCount: 0, latencyCount: 0, latencySum: 0, latencyMin: null, latencyMax: null };
  return { monitorId, location, start, ...sums };
}
