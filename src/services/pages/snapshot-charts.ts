// The series of a component's charts (response time, players) from its monitor's hourly and daily buckets: pure.
import { type Bucket, DAY_MS, HOUR_MS } from '../../domain/check.js';
import { addHistogram, emptyHistogram, latencyPercentile } from '../../domain/latency-histogram.js';
import type { ChartRange, ComponentCharts, LatencySeries, PlayersSeries } from '../../domain/snapshot.js';

/** Each window's resolution: few enough points to keep the JSON and the SVG small, enough to show a day's rhythm. */
export const CHART_WINDOWS: Record<ChartRange, { points: number; stepMs: number; period: 'hour' | 'day' }> = {
  '24h': { points: 24, stepMs: HOUR_MS, period: 'hour' },
  '7d': { points: 28, stepMs: 6 * HOUR_MS, period: 'hour' },
  '30d': { points: 30, stepMs: DAY_MS, period: 'day' },
};

/** The first point of each window at `now`: the current period is the last point. */
export function chartStart(range: ChartRange, now: number): number {
  const { points, stepMs } = CHART_WINDOWS[range];
  return Math.floor(now / stepMs) * stepMs - (points - 1) * stepMs;
}

/** What buildSnapshot reads for the charts: hourly buckets from `hourlyFrom`, daily ones from `dailyFrom`. */
export function chartReadWindow(now: number): { hourlyFrom: number; dailyFrom: number } {
  return { hourlyFrom: Math.min(chartStart('24h', now), chartStart('7d', now)), dailyFrom: chartStart('30d', now) };
}

/** One monitor's charts; a chart is null when none of its windows has data (so the page draws nothing empty). */
export function componentCharts(hourly: readonly Bucket[], daily: readonly Bucket[], now: number): ComponentCharts {
  const buckets: Record<'hour' | 'day', readonly Bucket[]> = { hour: hourly, day: daily };
  const windows = <T>(series: (points: Bucket[][], range: ChartRange) => T): Record<ChartRange, T> => {
    const of = (range: ChartRange) => series(groupByPoint(buckets[CHART_WINDOWS[range].period], range, now), range);
    return { '24h': of('24h'), '7d': of('7d'), '30d': of('30d') };
  };
  const latency = windows((points, range) => latencySeries(points, range, now));
  const players = windows((points, range) => playersSeries(points, range, now));
  return {
    latency: Object.values(latency).some((s) => s.p50.some((v) => v !== null)) ? latency : null,
    players: Object.values(players).some((s) => s.max.some((v) => v !== null)) ? players : null,
  };
}

/** The charts of a component without a monitor, or before any check. */
export const NO_CHARTS: ComponentCharts = Object.freeze({ latency: null, players: null }) as ComponentCharts;

/** The buckets of each point of a window, in order (a point of 6 h holds up to six hourly buckets). */
function groupByPoint(buckets: readonly Bucket[], range: ChartRange, now: number): Bucket[][] {
  const { points, stepMs } = CHART_WINDOWS[range];
  const start = chartStart(range, now);
  const out: Bucket[][] = Array.from({ length: points }, () => []);
  for (const bucket of buckets) {
    const index = Math.floor((bucket.start - start) / stepMs);
    if (index >= 0 && index < points) out[index]!.push(bucket);
  }
  return out;
}

function latencySeries(points: Bucket[][], range: ChartRange, now: number): LatencySeries {
  const p50: (number | null)[] = [];
  const p95: (number | null)[] = [];
  for (const buckets of points) {
    const [median, high] = percentiles(buckets);
    p50.push(median);
    p95.push(high);
  }
  const [median, high] = percentiles(points.flat());
  return {
    start: chartStart(range, now),
    stepMs: CHART_WINDOWS[range].stepMs,
    p50,
    p95,
    summary: { p50: median, p95: high },
  };
}

/** Median and 95th percentile of the checks of these buckets, in whole milliseconds (the bins are far wider). */
function percentiles(buckets: readonly Bucket[]): [number | null, number | null] {
  const histogram = emptyHistogram();
  let min: number | null = null;
  let max: number | null = null;
  for (const b of buckets) {
    addHistogram(histogram, b.latencyHist);
    if (b.latencyMin !== null) min = min === null ? b.latencyMin : Math.min(min, b.latencyMin);
    if (b.latencyMax !== null) max = max === null ? b.latencyMax : Math.max(max, b.latencyMax);
  }
  const at = (share: number) => {
    const value = latencyPercentile(histogram, share, { min, max });
    return value === null ? null : Math.round(value);
  };
  return [at(0.5), at(0.95)];
}

function playersSeries(points: Bucket[][], range: ChartRange, now: number): PlayersSeries {
  const min: (number | null)[] = [];
  const avg: (number | null)[] = [];
  const max: (number | null)[] = [];
  for (const buckets of points) {
    const point = players(buckets);
    min.push(point.min);
    avg.push(point.avg);
    max.push(point.max);
  }
  return {
    start: chartStart(range, now),
    stepMs: CHART_WINDOWS[range].stepMs,
    min,
    avg,
    max,
    summary: players(points.flat()),
  };
}

/**
 * Fewest, average and most players of these buckets. The average weighs each bucket by its checks: a bucket keeps
 * no count of the checks that reported players, and a game server's checks all do.
 */
function players(buckets: readonly Bucket[]): { min: number | null; avg: number | null; max: number | null } {
  let min: number | null = null;
  let max: number | null = null;
  let sum = 0;
  let weight = 0;
  for (const b of buckets) {
    if (b.playersMin !== null) min = min === null ? b.playersMin : Math.min(min, b.playersMin);
    if (b.playersMax !== null) max = max === null ? b.playersMax : Math.max(max, b.playersMax);
    if (b.playersAvg !== null && b.count > 0) {
      sum += b.playersAvg * b.count;
      weight += b.count;
    }
  }
  return { min, avg: weight === 0 ? null : Math.round(sum / weight), max };
}
