// A component's uptime as the page shows it: the 24 h / 7 / 30 / 90-day ratios and the 90 daily bars with their incidents.
import { type BucketCount as Bucket, DAY_MS } from '../../domain/check.js';
import type { Incident } from '../../domain/incident.js';
import type { DailyBar, UptimeWindows } from '../../domain/snapshot.js';
import { dayState } from '../../domain/states.js';
import { estimatedMinutes, touches } from '../../domain/uptime-report.js';

export const STRIP_DAYS = 90;

function ratio(buckets: Bucket[]): number | null {
  let count = 0;
  let up = 0;
  for (const b of buckets) {
    count += b.count;
    up += b.upCount;
  }
  return count === 0 ? null : up / count;
}

export function uptimeWindows(days: Bucket[], hours: Bucket[], today: number): UptimeWindows {
  const since = (n: number) => days.filter((b) => b.start > today - n * DAY_MS);
  return { '24h': ratio(hours), '7d': ratio(since(7)), '30d': ratio(since(30)), '90d': ratio(since(STRIP_DAYS)) };
}

export function stripDates(today: number): string[] {
  const dates: string[] = [];
  for (let i = STRIP_DAYS - 1; i >= 0; i--) dates.push(new Date(today - i * DAY_MS).toISOString().slice(0, 10));
  return dates;
}

/**
 * The 90 bars. `downMinutes` estimates the day's downtime from its counts alone (buckets keep no timeline): the share
 * of failed checks × the minutes the day was watched — all of it (so far, today), or less when its checks cover less
 * (checks × the monitor's interval: a monitor added that afternoon).
 */
export function strip(
  days: Bucket[],
  at: { now: number; dates: string[]; intervalSec: number | null; incidents: DayIncident[] },
): DailyBar[] {
  const today = Math.floor(at.now / DAY_MS) * DAY_MS;
  const byStart = new Map(days.map((b) => [b.start, b]));
  const bars: DailyBar[] = [];
  for (let i = STRIP_DAYS - 1; i >= 0; i--) {
    const start = today - i * DAY_MS;
    const bucket = byStart.get(start);
    const count = bucket?.count ?? 0;
    const downMinutes = estimatedMinutes(
      { count, share: count - (bucket?.upCount ?? 0) },
      { start, end: start + DAY_MS, now: at.now, intervalSec: at.intervalSec },
    );
    bars.push({
      date: at.dates[STRIP_DAYS - 1 - i] as string,
      uptime: bucket && count > 0 ? bucket.upCount / count : null,
      state: dayState(bucket),
      checks: count,
      downMinutes,
      incidents: at.incidents
        .filter((incident) => touches(incident, start, start + DAY_MS))
        .map(({ id, title }) => ({ id, title })),
    });
  }
  return bars;
}

export interface DayIncident {
  id: string;
  title: string;
  from: number;
  to: number;
}

/** The incidents naming this component, oldest first, each with the span it was open (to now while it is). */
export function dayIncidents(incidents: Incident[], componentId: string, now: number): DayIncident[] {
  return incidents
    .filter((i) => i.componentIds.includes(componentId))
    .map((i) => ({
      id: i.id,
      title: i.title,
      from: i.startedAt,
      to: i.resolvedAt ?? (i.status === 'resolved' ? i.startedAt : now),
    }))
    .sort((a, b) => a.from - b.from || (a.id < b.id ? -1 : 1));
}
