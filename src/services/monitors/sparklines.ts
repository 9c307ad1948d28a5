// The strips of the dashboard's monitor list for up to 500 monitors: hourly uptime and latency over 24 hours (one bucket
// query), the uptime of those hours, and each monitor's last checks as beats (its newest checks, one indexed read each).
import { z } from 'zod';
import { HOUR_MS } from '../../domain/check.js';
import { organizationOf, parseInput, type ServiceContext } from '../context.js';

/** Monitors per request at most (`ids`). */
export const SPARKLINE_IDS_MAX = 500;
/** Hourly points per monitor: the last 24 hours, the current one included. */
export const SPARKLINE_HOURS = 24;
/** The last checks per monitor given as beats. */
export const BEATS_PER_MONITOR = 30;

export const sparklineQuerySchema = z.object({
  ids: z
    .string()
    .max(SPARKLINE_IDS_MAX * 201)
    .describe(
      `Monitor ids, comma-separated (1 to ${SPARKLINE_IDS_MAX}). Ids that are not your organization's monitors are left out of the answer.`,
    ),
});

/** The ids of the list, each once. */
const idsSchema = z.object({
  ids: z
    .string()
    .transform((value) => [
      ...new Set(
        value
          .split(',')
          .map((id) => id.trim())
          .filter((id) => id !== ''),
      ),
    ])
    .pipe(
      z
        .array(z.string().max(200, { error: 'expected monitor ids of at most 200 characters' }))
        .min(1, { error: 'expected at least one monitor id' })
        .max(SPARKLINE_IDS_MAX, { error: `expected at most ${SPARKLINE_IDS_MAX} monitor ids` }),
    ),
});

const pointSchema = z.object({
  at: z.number().int().describe("The hour's first millisecond (UTC)."),
  uptime: z.number().min(0).max(1).nullable().describe('Passing checks / checks of the hour; null without checks.'),
  latencyMs: z.number().nullable().describe('Average latency of the hour; null without a latency.'),
});

const beatSchema = z.object({
  at: z.number().int().describe('When the check ran (epoch ms).'),
  ok: z.boolean().describe('Whether the check passed.'),
  latencyMs: z.number().nullable(),
  message: z.string().nullable().describe("What the check said: the probe's message, or its error."),
});

export const sparklinesSchema = z.object({
  from: z.number().int().describe('The first hour (epoch ms).'),
  to: z.number().int().describe('Now (epoch ms).'),
  monitors: z
    .array(
      z.object({
        id: z.string(),
        points: z.array(pointSchema).describe(`${SPARKLINE_HOURS} hourly points, oldest first.`),
        uptime: z
          .number()
          .min(0)
          .max(1)
          .nullable()
          .describe(`Passing checks / checks over the ${SPARKLINE_HOURS} hours; null without checks.`),
        beats: z
          .array(beatSchema)
          .max(BEATS_PER_MONITOR)
          .describe(`The last ${BEATS_PER_MONITOR} checks at most, whenever they ran, oldest first.`),
      }),
    )
    .describe('In the order asked.'),
});

export type Sparklines = z.infer<typeof sparklinesSchema>;

export async function monitorSparklines(
  ctx: ServiceContext,
  input: z.input<typeof sparklineQuerySchema>,
): Promise<Sparklines> {
  const { ids } = parseInput(idsSchema, input);
  const now = ctx.clock.now();
  const from = Math.floor(now / HOUR_MS) * HOUR_MS - (SPARKLINE_HOURS - 1) * HOUR_MS;
  const owned = new Set(await ctx.store.monitors.idsOf(organizationOf(ctx), ids));
  const monitorIds = ids.filter((id) => owned.has(id));
  const byMonitor = new Map<string, Map<number, Sparklines['monitors'][number]['points'][number]>>();
  const counts = new Map<string, { count: number; up: number }>();
  const beats = await Promise.all(monitorIds.map((id) => lastBeats(ctx, id, now)));
  for (const b of await ctx.store.checks.buckets('hour', monitorIds, from, now + 1)) {
    const hours = byMonitor.get(b.monitorId) ?? new Map();
    byMonitor.set(b.monitorId, hours);
    const sum = counts.get(b.monitorId) ?? { count: 0, up: 0 };
    counts.set(b.monitorId, { count: sum.count + b.count, up: sum.up + b.upCount });
    hours.set(b.start, {
      at: b.start,
      uptime: b.count > 0 ? b.upCount / b.count : null,
      latencyMs: b.latencyAvg === null ? null : Math.round(b.latencyAvg * 10) / 10,
    });
  }
  return {
    from,
    to: now,
    monitors: monitorIds.map((id, i) => {
      const sum = counts.get(id);
      return {
        id,
        points: Array.from({ length: SPARKLINE_HOURS }, (_, i) => {
          const at = from + i * HOUR_MS;
          return byMonitor.get(id)?.get(at) ?? { at, uptime: null, latencyMs: null };
        }),
        uptime: sum && sum.count > 0 ? sum.up / sum.count : null,
        beats: beats[i] ?? [],
      };
    }),
  };
}

/** A monitor's newest checks, oldest first: from its very first check, however long ago. */
async function lastBeats(ctx: ServiceContext, monitorId: string, now: number): Promise<z.infer<typeof beatSchema>[]> {
  const checks = await ctx.store.checks.list(monitorId, { from: 0, to: now + 1, limit: BEATS_PER_MONITOR });
  return checks
    .map((c) => ({
      at: c.checkedAt,
      ok: c.ok,
      latencyMs: c.latencyMs,
      message: c.ok ? c.message : (c.error ?? c.message),
    }))
    .reverse();
}
