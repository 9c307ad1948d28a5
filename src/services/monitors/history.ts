// A monitor's history over the last N hours: raw checks (newest first, by cursor) and hourly or daily buckets with the window's uptime.
import { z } from 'zod';
import { type Bucket, DAY_MS, HOUR_MS } from '../../domain/check.js';
import { ownLocation } from '../../domain/monitor.js';
import { CHECK_SOURCES } from '../../domain/monitor-type.js';
import { API_LIMITS } from '../api-limits.js';
import { parseInput, type ServiceContext } from '../context.js';
import { locationKey } from './locations-view.js';
import { relayKeysById, requireMonitor } from './read.js';
import { decodeCursor, encodeCursor, monitorHistoryInput } from './schema.js';

const ratio = z.number().min(0).max(1).nullable();

export const historyCheckSchema = z.object({
  id: z.number().int(),
  checkedAt: z.number().int(),
  ok: z.boolean(),
  latencyMs: z.number().int().nullable(),
  message: z.string().nullable(),
  error: z.string().nullable(),
  data: z
    .record(z.string(), z.unknown())
    .nullable()
    .describe('Live data of the check: players, maxPlayers, version, …'),
  source: z.enum(CHECK_SOURCES),
  location: z.string().nullable().describe('Where it ran: "edge" or the relay\'s key (null for a push monitor\'s).'),
});

export const historyBucketSchema = z.object({
  start: z.number().int().describe("The period's first millisecond (UTC)."),
  count: z.number().int().describe('Checks in the period.'),
  upCount: z.number().int().describe('Passing checks.'),
  degradedCount: z.number().int().describe('Passing checks that showed the monitor as degraded.'),
  uptime: ratio.describe('upCount / count; null without checks.'),
  latencyMinMs: z.number().nullable(),
  latencyAvgMs: z.number().nullable(),
  latencyMaxMs: z.number().nullable(),
  playersAvg: z.number().nullable(),
  playersMax: z.number().nullable(),
});

export const monitorHistorySchema = z.object({
  monitorId: z.string(),
  hours: z.number().int(),
  from: z.number().int().describe('Start of the window (epoch ms).'),
  to: z.number().int().describe('End of the window: now (epoch ms).'),
  uptime: ratio.describe("Passing checks / checks over the window's buckets; null without checks."),
  checkCount: z.number().int().describe("Checks over the window's buckets."),
  checks: z.array(historyCheckSchema).describe('Raw checks, newest first, at most `limit` of them.'),
  nextCursor: z.string().nullable().describe('Pass as `cursor` for the next (older) page; null on the last page.'),
  bucketPeriod: z.enum(['hour', 'day']),
  buckets: z.array(historyBucketSchema).describe('Oldest first; periods without checks are left out.'),
});

export type MonitorHistory = z.infer<typeof monitorHistorySchema>;

export async function monitorHistory(
  ctx: ServiceContext,
  input: z.input<typeof monitorHistoryInput>,
): Promise<MonitorHistory> {
  const { id, ...query } = parseInput(monitorHistoryInput, input);
  const monitor = await requireMonitor(ctx, { id });
  const now = ctx.clock.now();
  const from = now - query.hours * HOUR_MS;
  const daily = query.hours > API_LIMITS.hourlyBucketsUpToHours;
  const period = daily ? DAY_MS : HOUR_MS;
  const before = query.cursor === undefined ? undefined : decodeCursor(query.cursor);
  const [page, buckets, relayKeys] = await Promise.all([
    ctx.store.checks.list(monitor.id, { from, to: now + 1, limit: query.limit + 1, before }),
    ctx.store.checks.buckets(daily ? 'day' : 'hour', [monitor.id], Math.floor(from / period) * period, now + 1),
    relayKeysById(ctx),
  ]);
  // A check without a location is a single-location monitor's: it ran at the monitor's own place.
  const own = ownLocation(monitor);
  const locationOf = (location: string | undefined) => {
    const at = location ?? own;
    return at === null ? null : locationKey(at, relayKeys);
  };
  const checks = page.slice(0, query.limit);
  const last = checks.at(-1);
  const checkCount = buckets.reduce((sum, b) => sum + b.count, 0);
  const upCount = buckets.reduce((sum, b) => sum + b.upCount, 0);
  return {
    monitorId: monitor.id,
    hours: query.hours,
    from,
    to: now,
    uptime: checkCount > 0 ? upCount / checkCount : null,
    checkCount,
    checks: checks.map(({ monitorId: _monitorId, location, ...check }) => ({
      ...check,
      location: locationOf(location),
    })),
    nextCursor: page.length > query.limit && last ? encodeCursor(last) : null,
    bucketPeriod: daily ? 'day' : 'hour',
    buckets: buckets.map(bucketView),
  };
}

function bucketView(b: Bucket): MonitorHistory['buckets'][number] {
  return {
    start: b.start,
    count: b.count,
    upCount: b.upCount,
    degradedCount: b.degradedCount,
    uptime: b.count > 0 ? b.upCount / b.count : null,
    latencyMinMs: b.latencyMin,
    latencyAvgMs: b.latencyAvg === null ? null : Math.round(b.latencyAvg * 10) / 10,
    latencyMaxMs: b.latencyMax,
    playersAvg: b.playersAvg === null ? null : Math.round(b.playersAvg * 10) / 10,
    playersMax: b.playersMax,
  };
}
