// The response time of a monitor checked from several places, one series per place (docs/monitors.md, "Several
// locations"), from the per-location hourly rollup: pure. The page draws them as one line each.
import type { LocationBucketSums } from '../../domain/check.js';
import {
  CHART_RANGES,
  type ChartRange,
  type LocationChart,
  type LocationLatencySeries,
} from '../../domain/snapshot.js';
import { CHART_WINDOWS, chartStart } from './snapshot-charts.js';

/** A place the monitor is checked from: its location id ('edge' or a relay id) and what the page calls it. */
export interface ChartLocation {
  id: string;
  /** The relay's name; null for the edge (the page names Warden itself in its language). */
  name: string | null;
}

/** One chart per place, in the order given (the monitor's own place first); none when no place measured anything. */
export function locationCharts(
  buckets: readonly LocationBucketSums[],
  places: readonly ChartLocation[],
  now: number,
): LocationChart[] | undefined {
  const byPlace = new Map<string, LocationBucketSums[]>(places.map((p) => [p.id, []]));
  for (const b of buckets) byPlace.get(b.location)?.push(b);
  const charts = places.map((place) => {
    const own = byPlace.get(place.id) ?? [];
    const latency = Object.fromEntries(CHART_RANGES.map((range) => [range, series(own, range, now)])) as Record<
      ChartRange,
      LocationLatencySeries
    >;
    return { name: place.name, latency };
  });
  const measured = charts.some((c) => Object.values(c.latency).some((s) => s.avg.some((v) => v !== null)));
  return measured ? charts : undefined;
}

function series(buckets: readonly LocationBucketSums[], range: ChartRange, now: number): LocationLatencySeries {
  const { points, stepMs } = CHART_WINDOWS[range];
  const start = chartStart(range, now);
  const sums = Array.from({ length: points }, () => ({ sum: 0, count: 0 }));
  const total = { sum: 0, count: 0 };
  for (const b of buckets) {
    const index = Math.floor((b.start - start) / stepMs);
    const point = sums[index];
    if (!point || b.latencyCount === 0) continue;
    point.sum += b.latencySum;
    point.count += b.latencyCount;
    total.sum += b.latencySum;
    total.count += b.latencyCount;
  }
  const avg = (s: { sum: number; count: number }) => (s.count === 0 ? null : Math.round(s.sum / s.count));
  return { start, stepMs, avg: sums.map(avg), summary: { avg: avg(total) } };
}
