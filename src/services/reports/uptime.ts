// The uptime report verb: availability, downtime, maintenance, incidents and time to recover of monitors, components
// and pages over a range of days, from the rollups (docs/reports.md).
import type { z } from 'zod';
import { DAY_MS } from '../../domain/check.js';
import { ValidationError } from '../../domain/errors.js';
import type { MonitorStateChange } from '../../domain/monitor.js';
import { type Recovery, recoveries, reportDays } from '../../domain/uptime-report.js';
import { fromFloating, toFloating } from '../../domain/zoned-time.js';
import { parseInput, type ServiceContext } from '../context.js';
import { bucketsByDay, subjectReport } from './uptime-figures.js';
import {
  uptimeReportQuerySchema as querySchema,
  REPORT_DEFAULT_DAYS,
  REPORT_MAX_DAYS,
  type UptimeReport,
  type uptimeReportQuerySchema,
} from './uptime-schema.js';
import { resolveSubjects } from './uptime-subjects.js';

/** State changes read per monitor at most (pages of 200): a flapping monitor's month, well beyond a calm one's year. */
const CHANGE_PAGES = 25;
const CHANGE_PAGE = 200;

export async function uptimeReport(
  ctx: ServiceContext,
  input: z.input<typeof uptimeReportQuerySchema>,
): Promise<UptimeReport> {
  const query = parseInput(querySchema, input);
  const now = ctx.clock.now();
  const zone = { startOf: (date: string) => fromFloating(Date.parse(`${date}T00:00:00Z`), query.timezone) };
  const { from, to } = reportRange(query, now);
  const days = reportDays(from, to, zone);
  const range = { from: days[0]?.from ?? 0, to: days.at(-1)?.to ?? 0 };
  const subjects = await resolveSubjects(ctx, query, range, now);
  const monitorIds = [...new Set(subjects.flatMap((s) => s.monitorIds))];
  // UTC days are the daily rollups themselves (the page's bars); other zones' days are summed from the hourly ones.
  const period = query.timezone === 'UTC' ? 'day' : 'hour';
  const [buckets, spells] = await Promise.all([
    ctx.store.checks.bucketCounts(period, monitorIds, range.from, range.to),
    recoveriesOf(ctx, monitorIds, range.from),
  ]);
  const data = {
    days,
    bucketsByDay: bucketsByDay(buckets, days),
    recoveries: spells,
    granularity: query.granularity,
    now,
  };
  return {
    from,
    to,
    timezone: query.timezone,
    granularity: query.granularity,
    generatedAt: now,
    subjects: subjects.map((subject) => subjectReport(subject, data)),
  };
}

/** The range's dates: `to` today by default and never later, `from` 29 days before it by default, 400 days at most. */
export function reportRange(
  query: { from?: string | undefined; to?: string | undefined; timezone: string },
  now: number,
) {
  const today = new Date(toFloating(now, query.timezone)).toISOString().slice(0, 10);
  const to = query.to ?? today;
  if (to > today)
    throw new ValidationError([{ path: 'to', message: `must not be after today (${today} in ${query.timezone})` }]);
  const dayOf = (date: string) => Date.parse(`${date}T00:00:00Z`) / DAY_MS;
  const from = query.from ?? new Date((dayOf(to) - (REPORT_DEFAULT_DAYS - 1)) * DAY_MS).toISOString().slice(0, 10);
  if (from > to) throw new ValidationError([{ path: 'from', message: `must not be after to (${to})` }]);
  const length = dayOf(to) - dayOf(from) + 1;
  if (length > REPORT_MAX_DAYS)
    throw new ValidationError([
      {
        path: 'from',
        message: `at most ${REPORT_MAX_DAYS} days from from to to (the rollups' retention); this is ${length}`,
      },
    ]);
  return { from, to };
}

/**
 * Each monitor's recoveries from its state history: changes are read newest first back to the first one before the
 * range (which says how the range began). State history is kept as long as the raw checks (30 days by default).
 */
async function recoveriesOf(ctx: ServiceContext, monitorIds: readonly string[], since: number) {
  const out = new Map<string, Recovery[]>();
  for (const monitorId of monitorIds) {
    const changes: MonitorStateChange[] = [];
    let before: { at: number; id: string } | undefined;
    for (let page = 0; page < CHANGE_PAGES; page++) {
      const batch = await ctx.store.monitorStates.listChanges(monitorId, { limit: CHANGE_PAGE, before });
      changes.push(...batch);
      const last = batch.at(-1);
      if (!last || batch.length < CHANGE_PAGE || last.at < since) break;
      before = { at: last.at, id: last.id };
    }
    out.set(monitorId, recoveries(changes));
  }
  return out;
}
