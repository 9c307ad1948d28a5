// A monitor's response-time chart: checks, uptime, p50/p95 latency (from the buckets' histograms) and players per hour or day.
import { z } from 'zod';
import { BUCKET_PERIOD_MS, type Bucket, type BucketPeriod } from '../../domain/check.js';
import { reference } from '../../domain/fields.js';
import { addHistogram, latencyPercentile } from '../../domain/latency-histogram.js';
import { parseInput, type ServiceContext } from '../context.js';
import { requireMonitor } from './read.js';

/** Each window with its points: hourly up to a week, daily beyond (both kept as long as buckets are, 400 days by default). */
export const STATS_RANGES = {
  '24h': { period: 'hour', points: 24 },
  '7d': { period: 'hour', points: 7 * 24 },
  '30d': { period: 'day', points: 30 },
  '90d': { period: 'day', points: 90 },
} as const satisfies Record<string, { period: BucketPeriod; points: number }>;

type StatsRange = keyof typeof STATS_RANGES;
const RANGE_NAMES = Object.keys(STATS_RANGES) as [StatsRange, ...StatsRange[]];

export const statsQuerySchema = z.object({
  range: z
    .enum(RANGE_NAMES)
    .default('24h')
    .describe('24h and 7d: a point per hour; 30d and 90d: a point per day (UTC).'),
});
export const monitorStatsInput = statsQuerySchema.extend({ id: reference() });

const ms = z.number().nullable();
const latency = {
  p50Ms: ms.describe(
    'Median latency, interpolated from the latency histogram (exact to its bin); null without a latency.',
  ),
  p95Ms: ms.describe('95th percentile latency, the same way.'),
};

export const statsPointSchema = z.object({
  at: z.number().int().describe("The period's first millisecond (UTC)."),
  count: z.number().int().describe('Checks in the period.'),
  uptime: z.number().min(0).max(1).nullable().describe('Passing checks / checks; null without checks.'),
  ...latency,
  playersAvg: z.number().nullable(),
  playersMax: z.number().nullable(),
});

export const monitorStatsSchema = z.object({
  monitorId: z.string(),
  range: z.enum(RANGE_NAMES),
  period: z.enum(['hour', 'day']),
  from: z.number().int().describe('The first period (epoch ms).'),
  to: z.number().int().describe('Now (epoch ms).'),
  points: z
    .array(statsPointSchema)
    .describe('Every period of the window, oldest first; those without checks have count 0 and nulls.'),
  totals: z
    .object({
      count: z.number().int(),
      uptime: z.number().min(0).max(1).nullable(),
      ...latency,
      latencyAvgMs: ms,
      playersMax: z.number().nullable(),
    })
    .describe('The whole window.'),
});

export type MonitorStats = z.infer<typeof monitorStatsSchema>;

export async function monitorStats(
  ctx: ServiceContext,
  input: z.input<typeof monitorStatsInput>,
): Promise<MonitorStats> {
  const { id, range } = parseInput(monitorStatsInput, input);
  const monitor = await requireMonitor(ctx, { id });
  const { period, points } = STATS_RANGES[range];
  const step = BUCKET_PERIOD_MS[period];
  const now = ctx.clock.now();
  const from = Math.floor(now / step) * step - (points - 1) * step;
  const buckets = new Map(
    (await ctx.store.checks.buckets(period, [monitor.id], from, now + 1)).map((b) => [b.start, b]),
  );
  return {
    monitorId: monitor.id,
    range,
    period,
    from,
    to: now,
    points: Array.from({ length: points }, (_, i) => pointOf(from + i * step, buckets.get(from + i * step))),
    totals: totalsOf([...buckets.values()]),
  };
}

const round = (value: number | null) => (value === null ? null : Math.round(value * 10) / 10);

function pointOf(at: number, b: Bucket | undefined): MonitorStats['points'][number] {
  if (!b) return { at, count: 0, uptime: null, p50Ms: null, p95Ms: null, playersAvg: null, playersMax: null };
  const seen = { min: b.latencyMin, max: b.latencyMax };
  return {
    at,
    count: b.count,
    uptime: b.count > 0 ? b.upCount / b.count : null,
    p50Ms: latencyPercentile(b.latencyHist, 0.5, seen),
    p95Ms: latencyPercentile(b.latencyHist, 0.95, seen),
    playersAvg: round(b.playersAvg),
    playersMax: b.playersMax,
  };
}

function totalsOf(buckets: Bucket[]): MonitorStats['totals'] {
  const histogram: number[] = [];
  let count = 0;
  let up = 0;
  let latencySum = 0;
  let latencyCount = 0;
  let min: number | null = null;
  let max: number | null = null;
  let playersMax: number | null = null;
  for (const b of buckets) {
    count += b.count;
    up += b.upCount;
    addHistogram(histogram, b.latencyHist);
    // Every check with a latency is in exactly one bin: the bins' sum weighs the bucket's average.
    const withLatency = b.latencyHist.reduce((sum, n) => sum + n, 0);
    if (b.latencyAvg !== null) {
      latencySum += b.latencyAvg * withLatency;
      latencyCount += withLatency;
    }
    if (b.latencyMin !== null) min = min === null ? b.latencyMin : Math.min(min, b.latencyMin);
    if (b.latencyMax !== null) max = max === null ? b.latencyMax : Math.max(max, b.latencyMax);
    if (b.playersMax !== null) playersMax = playersMax === null ? b.playersMax : Math.max(playersMax, b.playersMax);
  }
  return {
    count,
    uptime: count > 0 ? up / count : null,
    p50Ms: latencyPercentile(histogram, 0.5, { min, max }),
    p95Ms: latencyPercentile(histogram, 0.95, { min, max }),
    latencyAvgMs: latencyCount > 0 ? round(latencySum / latencyCount) : null,
    playersMax,
  };
}
