// One subject's report from what the store gave: its days' figures from the rollup counts, then its months and the
// whole range as sums of days (incidents counted once per period, not once per day).
import type { BucketCount } from '../../domain/check.js';
import {
  addFigures,
  availabilityPercent,
  coveredMinutes,
  dayMinutes,
  mttrMinutes,
  NO_FIGURES,
  type PeriodFigures,
  type Recovery,
  type ReportDay,
  type Span,
  sumCounts,
  touches,
} from '../../domain/uptime-report.js';
import type { UptimePoint, UptimeSubjectReport } from './uptime-schema.js';
import type { ReportSubject } from './uptime-subjects.js';

export interface ReportData {
  days: ReportDay[];
  /** Each monitor's buckets (daily in UTC, hourly otherwise), by the index of the day they fall in. */
  bucketsByDay: Map<string, BucketCount[][]>;
  recoveries: Map<string, Recovery[]>;
  granularity: 'day' | 'month';
  now: number;
}

/** Each monitor's buckets by the day they start in (days ordered and contiguous); buckets outside are left out. */
export function bucketsByDay(
  buckets: readonly BucketCount[],
  days: readonly ReportDay[],
): Map<string, BucketCount[][]> {
  const out = new Map<string, BucketCount[][]>();
  for (const b of buckets) {
    const index = dayIndex(days, b.start);
    if (index < 0) continue;
    let perDay = out.get(b.monitorId);
    if (!perDay) {
      perDay = days.map(() => []);
      out.set(b.monitorId, perDay);
    }
    perDay[index]?.push(b);
  }
  return out;
}

function dayIndex(days: readonly ReportDay[], at: number): number {
  let lo = 0;
  let hi = days.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    const day = days[mid] as ReportDay;
    if (at < day.from) hi = mid - 1;
    else if (at >= day.to) lo = mid + 1;
    else return mid;
  }
  return -1;
}

export function subjectReport(subject: ReportSubject, data: ReportData): UptimeSubjectReport {
  const recoveries = subject.monitorIds.flatMap((id) => data.recoveries.get(id) ?? []);
  const days = data.days.map((day, index) => dayFigures(subject, data, day, index, recoveries));
  const periods =
    data.granularity === 'day'
      ? data.days.map((day, i) => ({ period: day.date, span: day, figures: days[i] as PeriodFigures }))
      : months(data.days, days);
  const whole = { from: data.days[0]?.from ?? 0, to: data.days.at(-1)?.to ?? 0 };
  const series: UptimePoint[] = periods.map(({ period, span, figures }) => ({
    period,
    from: span.from,
    to: span.to,
    ...shown({ ...figures, incidents: incidentsIn(subject, span) }),
  }));
  return {
    type: subject.type,
    id: subject.id,
    key: subject.key,
    name: subject.name,
    summary: shown({ ...days.reduce(addFigures, NO_FIGURES), incidents: incidentsIn(subject, whole) }),
    series,
  };
}

function dayFigures(
  subject: ReportSubject,
  data: ReportData,
  day: ReportDay,
  index: number,
  recoveries: Recovery[],
): PeriodFigures {
  const counts = sumCounts(subject.monitorIds.flatMap((id) => data.bucketsByDay.get(id)?.[index] ?? []));
  const recovered = recoveries.filter((r) => r.recoveredAt >= day.from && r.recoveredAt < day.to);
  return {
    checks: counts.count,
    upChecks: counts.upCount,
    ...dayMinutes(counts, { start: day.from, end: day.to, now: data.now, intervalSec: subject.intervalSec }),
    maintenanceMinutes: coveredMinutes(subject.maintenance, day, data.now),
    incidents: incidentsIn(subject, day),
    recoveries: recovered.length,
    recoveryMinutes: recovered.reduce((sum, r) => sum + (r.recoveredAt - r.downAt) / 60_000, 0),
  };
}

function incidentsIn(subject: ReportSubject, span: Span): number {
  return subject.incidents.filter((i) => touches(i, span.from, span.to)).length;
}

/** Days grouped by their month (YYYY-MM), each month the sum of its days. */
function months(
  days: readonly ReportDay[],
  figures: readonly PeriodFigures[],
): { period: string; span: Span; figures: PeriodFigures }[] {
  const out: { period: string; span: Span; figures: PeriodFigures }[] = [];
  days.forEach((day, i) => {
    const period = day.date.slice(0, 7);
    const last = out.at(-1);
    const f = figures[i] as PeriodFigures;
    if (last && last.period === period) {
      last.span.to = day.to;
      last.figures = addFigures(last.figures, f);
    } else out.push({ period, span: { from: day.from, to: day.to }, figures: f });
  });
  return out;
}

/** The figures as the API answers them. */
function shown(f: PeriodFigures): Omit<UptimePoint, 'period' | 'from' | 'to'> {
  const uptime = f.checks === 0 ? null : f.upChecks / f.checks;
  return {
    checks: f.checks,
    uptime,
    availability: availabilityPercent(uptime),
    downMinutes: f.downMinutes,
    degradedMinutes: f.degradedMinutes,
    maintenanceMinutes: f.maintenanceMinutes,
    incidents: f.incidents,
    recoveries: f.recoveries,
    mttrMinutes: mttrMinutes(f),
  };
}
