// The rules of an uptime report: its days in a time zone, each day's figures from rollup counts (the same estimate as
// the page's 90 daily bars), maintenance and incidents by overlap, recoveries from state changes, and months of days.
import type { IncidentImpact } from './incident.js';
import type { PageState } from './snapshot.js';

export const MINUTE_MS = 60_000;
const DAY_MS = 86_400_000;

/** Counts of checks, as a rollup bucket (or a sum of them) holds them. */
export interface CheckCounts {
  count: number;
  upCount: number;
  degradedCount: number;
}

/** A span of time, [from, to). */
export interface Span {
  from: number;
  to: number;
}

/** One day of the report in its time zone: its date and the instants it covers. */
export interface ReportDay extends Span {
  date: string;
}

/** The figures of one period (a day, a month, the whole range) for one subject. */
export interface PeriodFigures {
  checks: number;
  upChecks: number;
  downMinutes: number | null;
  degradedMinutes: number | null;
  maintenanceMinutes: number;
  incidents: number;
  recoveries: number;
  /** Summed minutes of those recoveries' down spells (their mean is the MTTR). */
  recoveryMinutes: number;
}

/**
 * Minutes of a period spent failing (or degraded), estimated from its counts alone (buckets keep no timeline): the
 * share of such checks × the minutes the period was watched — all of it up to `now`, or less when its checks cover less
 * (checks × the monitor's interval: a monitor added that afternoon). The page's daily bars use this very rule.
 */
export function estimatedMinutes(
  counts: { count: number; share: number },
  at: { start: number; end: number; now: number; intervalSec: number | null },
): number | null {
  if (counts.count === 0) return null;
  const minutes = Math.max(0, Math.min(at.now, at.end) - at.start) / MINUTE_MS;
  const observed = at.intervalSec === null ? minutes : Math.min(minutes, (counts.count * at.intervalSec) / 60);
  return Math.round((observed * counts.share) / counts.count);
}

/** A day's down and degraded minutes from its counts (null without checks). */
export function dayMinutes(
  c: CheckCounts,
  at: { start: number; end: number; now: number; intervalSec: number | null },
): { downMinutes: number | null; degradedMinutes: number | null } {
  return {
    downMinutes: estimatedMinutes({ count: c.count, share: c.count - c.upCount }, at),
    degradedMinutes: estimatedMinutes({ count: c.count, share: c.degradedCount }, at),
  };
}

/** A share 0..1 as the page writes it, as a number: two decimals, three when two would read a short outage as 100. */
export function availabilityPercent(share: number | null): number | null {
  if (share === null || !Number.isFinite(share)) return null;
  const percent = Math.min(Math.max(share, 0), 1) * 100;
  const two = Number(percent.toFixed(2));
  if (share < 1 && two === 100) return Math.min(Math.floor(percent * 1000 + 1e-6), 99_999) / 1000;
  return two;
}

/** Days from `from` to `to` (dates, both included) in `timeZone`, each with the instants it covers. */
export function reportDays(from: string, to: string, zone: { startOf(date: string): number }): ReportDay[] {
  const days: ReportDay[] = [];
  for (let d = Date.parse(`${from}T00:00:00Z`); d <= Date.parse(`${to}T00:00:00Z`); d += DAY_MS) {
    const date = new Date(d).toISOString().slice(0, 10);
    const next = new Date(d + DAY_MS).toISOString().slice(0, 10);
    days.push({ date, from: zone.startOf(date), to: zone.startOf(next) });
  }
  return days;
}

/** Minutes of [span.from, min(span.to, now)) covered by any of these spans (overlaps counted once). */
export function coveredMinutes(spans: readonly Span[], span: Span, now: number): number {
  const end = Math.min(span.to, now);
  const cut = spans
    .map((s) => ({ from: Math.max(s.from, span.from), to: Math.min(s.to, end) }))
    .filter((s) => s.to > s.from)
    .sort((a, b) => a.from - b.from);
  let total = 0;
  let reached = Number.NEGATIVE_INFINITY;
  for (const s of cut) {
    const from = Math.max(s.from, reached);
    if (s.to > from) total += s.to - from;
    reached = Math.max(reached, s.to);
  }
  return Math.round(total / MINUTE_MS);
}

/** Whether an incident open over [from, to) touches [start, end): the bars' rule (one ended at midnight leaves the next day alone). */
export function touches(incident: Span, start: number, end: number): boolean {
  return incident.from < end && (incident.to > start || incident.from >= start);
}

/** A down spell that ended: when the monitor went down and when it recovered (to up or degraded). */
export interface Recovery {
  downAt: number;
  recoveredAt: number;
}

/**
 * The recoveries in a monitor's state changes (any order): each change out of `down` to `up` or `degraded` that follows
 * a change into `down` still on record. A spell ended by a pause is no recovery; one whose start was pruned is skipped.
 */
export function recoveries(changes: readonly { at: number; from: string; to: string }[]): Recovery[] {
  const sorted = [...changes].sort((a, b) => a.at - b.at);
  const out: Recovery[] = [];
  let downAt: number | null = null;
  for (const change of sorted) {
    if (change.to === 'down') downAt ??= change.at;
    else {
      if (downAt !== null && (change.to === 'up' || change.to === 'degraded'))
        out.push({ downAt, recoveredAt: change.at });
      downAt = null;
    }
  }
  return out;
}

/** Mean time to recover, in minutes with one decimal; null without recoveries. */
export function mttrMinutes(f: Pick<PeriodFigures, 'recoveries' | 'recoveryMinutes'>): number | null {
  return f.recoveries === 0 ? null : Math.round((f.recoveryMinutes / f.recoveries) * 10) / 10;
}

/** Adds figures period by period: checks, minutes (null stays null only while every part is), counts. */
export function addFigures(a: PeriodFigures, b: PeriodFigures): PeriodFigures {
  const plus = (x: number | null, y: number | null) => (x === null ? y : y === null ? x : x + y);
  return {
    checks: a.checks + b.checks,
    upChecks: a.upChecks + b.upChecks,
    downMinutes: plus(a.downMinutes, b.downMinutes),
    degradedMinutes: plus(a.degradedMinutes, b.degradedMinutes),
    maintenanceMinutes: a.maintenanceMinutes + b.maintenanceMinutes,
    incidents: a.incidents + b.incidents,
    recoveries: a.recoveries + b.recoveries,
    recoveryMinutes: a.recoveryMinutes + b.recoveryMinutes,
  };
}

export const NO_FIGURES: PeriodFigures = {
  checks: 0,
  upChecks: 0,
  downMinutes: null,
  degradedMinutes: null,
  maintenanceMinutes: 0,
  incidents: 0,
  recoveries: 0,
  recoveryMinutes: 0,
};

/** Sums the counts of these buckets. */
export function sumCounts(buckets: readonly CheckCounts[]): CheckCounts {
  const sum = { count: 0, upCount: 0, degradedCount: 0 };
  for (const b of buckets) {
    sum.count += b.count;
    sum.upCount += b.upCount;
    sum.degradedCount += b.degradedCount;
  }
  return sum;
}

/** A page's published uptime history: one month of UTC days (services/reports/page-history.ts). */
export interface HistoryDay {
  date: string;
  /** The worst of its components' bar states; `unknown` without checks. */
  state: PageState;
  /** The checks of the page's monitors that day, pooled (each monitor once). */
  uptime: number | null;
  availability: number | null;
  components: { id: string; name: string; state: PageState; uptime: number | null; downMinutes: number | null }[];
  incidents: { id: string; title: string; impact: IncidentImpact }[];
}

export interface PageHistory {
  page: { slug: string; title: string };
  month: string;
  /** The neighbouring months with history to show, or null. */
  previous: string | null;
  next: string | null;
  uptime: number | null;
  availability: number | null;
  days: HistoryDay[];
  incidents: { id: string; title: string; impact: IncidentImpact; startedAt: number; resolvedAt: number | null }[];
}
