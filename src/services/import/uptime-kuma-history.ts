// `warden import uptime-kuma KUMA.db --history`: Kuma's heartbeats as the hourly and daily buckets of the monitors
// imported from it (found by the same keys), so uptime and the 90-day bars start with Kuma's past.
import { type BucketSums, type CheckRow, DAY_MS, rollUp } from '../../domain/check.js';
import type { KumaData, KumaHeartbeat } from '../../store/index.js';
import { organizationOf, type ServiceContext, withTransaction } from '../context.js';
import type { ImportNote } from './report.js';
import { kumaMonitorKeys, monitorItem } from './uptime-kuma.js';

export interface KumaHistoryInput {
  data: KumaData;
  /** A Kuma monitor's heartbeats at or after `since`, oldest first. */
  heartbeats(monitorId: number, since: number): Iterable<KumaHeartbeat>;
}

export interface KumaHistoryFilled {
  key: string;
  /** Heartbeats counted (maintenance beats are not checks and are left out). */
  checks: number;
  days: number;
  hours: number;
  /** The first and last heartbeat counted; null when there was none before the monitor's first day in Warden. */
  from: number | null;
  to: number | null;
}

export interface KumaHistoryReport {
  filled: KumaHistoryFilled[];
  /** Kuma monitors with no Warden monitor of their key in the organization. */
  unmatched: ImportNote[];
}

const STATUS = { down: 0, up: 1, pending: 2 } as const;

/**
 * Fills the buckets of the organization's monitors from Kuma's heartbeats: up beats are passing checks (with their
 * ping as latency), down and pending ones failing checks, as Kuma 2.x counts them; maintenance beats are not checks.
 * Only days before the monitor's first day in Warden are written, so its own checks are never overwritten, and each
 * run replaces what the previous one wrote.
 */
export async function importUptimeKumaHistory(
  ctx: ServiceContext,
  input: KumaHistoryInput,
): Promise<KumaHistoryReport> {
  const organizationId = organizationOf(ctx);
  const keys = kumaMonitorKeys(input.data);
  const report: KumaHistoryReport = { filled: [], unmatched: [] };
  const touched = new Set<string>();
  for (const row of input.data.monitors) {
    if (row.type === 'group' || row.type === 'manual') continue;
    const key = keys.get(row.id)!;
    const monitor = await ctx.store.monitors.findByKey(organizationId, key);
    if (monitor === undefined) {
      report.unmatched.push({
        item: monitorItem(row),
        reason: `no monitor "${key}" in the organization (apply the imported warden.yaml first)`,
      });
      continue;
    }
    const before = Math.floor(monitor.createdAt / DAY_MS) * DAY_MS;
    const rolled = rollHeartbeats(monitor.id, input.heartbeats(row.id, 0), before);
    await ctx.store.checks.replaceBucketsBefore('hour', monitor.id, before, rolled.hours);
    await ctx.store.checks.replaceBucketsBefore('day', monitor.id, before, rolled.days);
    report.filled.push({
      key,
      checks: rolled.checks,
      days: rolled.days.length,
      hours: rolled.hours.length,
      from: rolled.from,
      to: rolled.to,
    });
    touched.add(monitor.id);
  }
  await announce(ctx, organizationId, touched);
  return report;
}

/** Hourly and daily buckets of heartbeats before `before`, rolled a day at a time (a database holds millions). */
function rollHeartbeats(monitorId: string, beats: Iterable<KumaHeartbeat>, before: number) {
  const hours: BucketSums[] = [];
  const days: BucketSums[] = [];
  let day: CheckRow[] = [];
  let dayStart: number | null = null;
  let checks = 0;
  let from: number | null = null;
  let to: number | null = null;
  const flush = () => {
    hours.push(...rollUp(day, 'hour'));
    days.push(...rollUp(day, 'day'));
    day = [];
  };
  for (const beat of beats) {
    if (beat.at >= before) break;
    if (beat.status !== STATUS.up && beat.status !== STATUS.down && beat.status !== STATUS.pending) continue;
    const start = Math.floor(beat.at / DAY_MS) * DAY_MS;
    if (dayStart !== start && day.length > 0) flush();
    dayStart = start;
    const ok = beat.status === STATUS.up;
    day.push({
      monitorId,
      checkedAt: beat.at,
      ok,
      degraded: false,
      latencyMs:
        ok && beat.ping !== null && Number.isFinite(beat.ping) && beat.ping >= 0 ? Math.round(beat.ping) : null,
      message: null,
      error: null,
      data: null,
      source: 'edge',
      resultId: null,
    });
    checks++;
    from ??= beat.at;
    to = beat.at;
  }
  if (day.length > 0) flush();
  return { hours, days, checks, from, to };
}

/** Tells the pages showing these monitors (here at once, other processes at their next poll of the change counter). */
async function announce(ctx: ServiceContext, organizationId: string, monitorIds: ReadonlySet<string>): Promise<void> {
  if (monitorIds.size === 0) return;
  const now = ctx.clock.now();
  await withTransaction(ctx, async (tx) => {
    for (const page of await tx.store.pages.list(organizationId)) {
      const components = await tx.store.components.list(page.id);
      if (components.some((c) => c.monitorId !== null && monitorIds.has(c.monitorId)))
        tx.bus.publish({ type: 'page.changed', at: now, pageId: page.id });
    }
  });
}
