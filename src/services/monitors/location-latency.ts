// A monitor's latency per location over the last N hours, hour by hour: what a response-time chart per location draws.
import { z } from 'zod';
import { HOUR_MS } from '../../domain/check.js';
import { queryIntIn, reference } from '../../domain/fields.js';
import { ownLocation, vantageOf } from '../../domain/monitor.js';
import { API_LIMITS } from '../api-limits.js';
import { parseInput, type ServiceContext } from '../context.js';
import { locationKey } from './locations-view.js';
import { relayKeysById, requireMonitor } from './read.js';

export const latencyQuerySchema = z.object({
  hours: queryIntIn(1, API_LIMITS.hourlyBucketsUpToHours)
    .default(API_LIMITS.historyHours.default)
    .describe(`The window: the last N hours (1 to ${API_LIMITS.hourlyBucketsUpToHours}), in hourly points.`),
});

export const locationLatencyInput = latencyQuerySchema.extend({ id: reference() });

const pointSchema = z.object({
  start: z.number().int().describe("The hour's first millisecond (UTC)."),
  count: z.number().int().describe("This location's checks in the hour."),
  upCount: z.number().int().describe('Of which passed.'),
  latencyAvgMs: z.number().nullable(),
  latencyMinMs: z.number().nullable(),
  latencyMaxMs: z.number().nullable(),
});

export const locationLatencySchema = z.object({
  monitorId: z.string(),
  from: z.number().int().describe('Start of the window (epoch ms).'),
  to: z.number().int().describe('End of the window: now (epoch ms).'),
  series: z
    .array(
      z.object({
        location: z.string().describe('"edge" or the relay\'s key.'),
        points: z.array(pointSchema).describe('Oldest first; hours without checks are left out.'),
      }),
    )
    .describe(
      "One series per location, the monitor's own place first. A single-location monitor has one: its own place's, from the monitor's hourly rollup.",
    ),
});

export type LocationLatency = z.infer<typeof locationLatencySchema>;
type Point = z.infer<typeof pointSchema>;

const round = (value: number) => Math.round(value * 10) / 10;

export async function locationLatency(
  ctx: ServiceContext,
  input: z.input<typeof locationLatencyInput>,
): Promise<LocationLatency> {
  const { id, hours } = parseInput(locationLatencyInput, input);
  const monitor = await requireMonitor(ctx, { id });
  const now = ctx.clock.now();
  const from = now - hours * HOUR_MS;
  const start = Math.floor(from / HOUR_MS) * HOUR_MS;
  const relayKeys = await relayKeysById(ctx);
  const vantage = vantageOf(monitor);
  if (vantage === null) {
    const own = ownLocation(monitor);
    const buckets = await ctx.store.checks.buckets('hour', [monitor.id], start, now + 1);
    const points = buckets.map((b) => ({
      start: b.start,
      count: b.count,
      upCount: b.upCount,
      latencyAvgMs: b.latencyAvg === null ? null : round(b.latencyAvg),
      latencyMinMs: b.latencyMin,
      latencyMaxMs: b.latencyMax,
    }));
    const location = own === null ? monitor.runOn : locationKey(own, relayKeys);
    return { monitorId: monitor.id, from, to: now, series: [{ location, points }] };
  }
  const buckets = await ctx.store.checks.locationBuckets(monitor.id, start, now + 1);
  const byLocation = new Map<string, Point[]>(vantage.locations.map((l) => [l, []]));
  for (const b of buckets) {
    let points = byLocation.get(b.location);
    // A location the monitor no longer lists still has its history in the window.
    if (!points) {
      points = [];
      byLocation.set(b.location, points);
    }
    points.push({
      start: b.start,
      count: b.count,
      upCount: b.upCount,
      latencyAvgMs: b.latencyCount > 0 ? round(b.latencySum / b.latencyCount) : null,
      latencyMinMs: b.latencyMin,
      latencyMaxMs: b.latencyMax,
    });
  }
  const series = [...byLocation].map(([location, points]) => ({ location: locationKey(location, relayKeys), points }));
  return { monitorId: monitor.id, from, to: now, series };
}
