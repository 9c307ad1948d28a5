// A page's published uptime history: one month of UTC days, each with its components' uptime and state as the 90-day
// bars have them, and the incidents of the page open that day (docs/reports.md).
import { DAY_MS } from '../../domain/check.js';
import { ValidationError } from '../../domain/errors.js';
import type { Page } from '../../domain/page.js';
import type { PageState } from '../../domain/snapshot.js';
import { dayState } from '../../domain/states.js';
import {
  availabilityPercent,
  estimatedMinutes,
  type HistoryDay,
  type PageHistory,
  sumCounts,
  touches,
} from '../../domain/uptime-report.js';
import type { ServiceContext } from '../context.js';
import { REPORT_MAX_DAYS } from './uptime-schema.js';

const WORST: PageState[] = ['down', 'degraded', 'maintenance', 'operational', 'unknown'];
const monthOf = (at: number) => new Date(at).toISOString().slice(0, 7);
const shift = (month: string, by: number) => {
  const d = new Date(`${month}-01T00:00:00Z`);
  d.setUTCMonth(d.getUTCMonth() + by);
  return monthOf(d.getTime());
};

/** The month asked (YYYY-MM; this month when absent): not ahead, nor older than the rollups. */
export function historyMonth(month: string | undefined, now: number): string {
  const current = monthOf(now);
  if (month === undefined || month === '') return current;
  const oldest = monthOf(now - (REPORT_MAX_DAYS - 1) * DAY_MS);
  if (!/^\d{4}-(0[1-9]|1[0-2])$/.test(month))
    throw new ValidationError([{ path: 'query.month', message: 'expected a month, YYYY-MM' }]);
  if (month > current || month < oldest)
    throw new ValidationError([{ path: 'query.month', message: `expected a month from ${oldest} to ${current}` }]);
  return month;
}

export async function pageUptimeHistory(
  ctx: Pick<ServiceContext, 'store'>,
  { page, month, now }: { page: Page; month: string; now: number },
): Promise<PageHistory> {
  const start = Date.parse(`${month}-01T00:00:00Z`);
  const end = Math.min(Date.parse(`${shift(month, 1)}-01T00:00:00Z`), Math.floor(now / DAY_MS) * DAY_MS + DAY_MS);
  const components = await ctx.store.components.list(page.id);
  const monitorIds = [...new Set(components.flatMap((c) => (c.monitorId === null ? [] : [c.monitorId])))];
  const [buckets, monitors, incidents] = await Promise.all([
    ctx.store.checks.bucketCounts('day', monitorIds, start, end),
    monitorIds.length === 0 ? [] : ctx.store.monitors.findByIds(monitorIds),
    ctx.store.incidents.list(page.id, { since: start, limit: 1000 }),
  ]);
  const interval = new Map(monitors.map((m) => [m.id, m.intervalSec]));
  const inMonth = incidents
    .filter((i) => i.startedAt < end)
    .map((i) => ({ incident: i, from: i.startedAt, to: i.resolvedAt ?? (i.status === 'resolved' ? i.startedAt : now) }))
    .filter((i) => touches(i, start, end))
    .sort((a, b) => a.from - b.from);
  const days: HistoryDay[] = [];
  for (let day = start; day < end; day += DAY_MS) {
    const of = (monitorId: string | null) => buckets.filter((b) => b.monitorId === monitorId && b.start === day);
    const pooled = sumCounts(monitorIds.flatMap(of));
    const rows = components.map((c) => {
      const counts = sumCounts(of(c.monitorId));
      const intervalSec = c.monitorId === null ? null : (interval.get(c.monitorId) ?? null);
      return {
        id: c.id,
        name: c.name,
        state: dayState(counts.count === 0 ? undefined : counts),
        uptime: counts.count === 0 ? null : counts.upCount / counts.count,
        downMinutes: estimatedMinutes(
          { count: counts.count, share: counts.count - counts.upCount },
          { start: day, end: day + DAY_MS, now, intervalSec },
        ),
      };
    });
    const uptime = pooled.count === 0 ? null : pooled.upCount / pooled.count;
    days.push({
      date: new Date(day).toISOString().slice(0, 10),
      state: WORST.find((s) => rows.some((r) => r.state === s)) ?? 'unknown',
      uptime,
      availability: availabilityPercent(uptime),
      components: rows,
      incidents: inMonth
        .filter((i) => touches(i, day, day + DAY_MS))
        .map(({ incident: i }) => ({ id: i.id, title: i.title, impact: i.impact })),
    });
  }
  const total = sumCounts(buckets);
  const uptime = total.count === 0 ? null : total.upCount / total.count;
  const oldest = monthOf(now - (REPORT_MAX_DAYS - 1) * DAY_MS);
  return {
    page: { slug: page.slug, title: page.title },
    month,
    previous: month > oldest ? shift(month, -1) : null,
    next: month < monthOf(now) ? shift(month, 1) : null,
    uptime,
    availability: availabilityPercent(uptime),
    days,
    incidents: inMonth.map(({ incident: i }) => ({
      id: i.id,
      title: i.title,
      impact: i.impact,
      startedAt: i.startedAt,
      resolvedAt: i.resolvedAt,
    })),
  };
}
