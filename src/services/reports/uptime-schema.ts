// What an uptime report takes (a range of dates, subjects, a granularity, a time zone) and what it answers.
import { z } from 'zod';
import { isTimeZone } from '../../domain/zoned-time.js';

/** The longest range: what the rollups keep (RETENTION_DEFAULTS.bucketDays). */
export const REPORT_MAX_DAYS = 400;
/** Monitors, components and pages in one report at most. */
export const REPORT_MAX_SUBJECTS = 100;
/** The range when none is given: the last 30 days, today included. */
export const REPORT_DEFAULT_DAYS = 30;

const date = (what: string) =>
  z
    .string()
    .regex(/^\d{4}-\d{2}-\d{2}$/, { error: 'expected a date, YYYY-MM-DD' })
    .refine(
      (s) => !Number.isNaN(Date.parse(`${s}T00:00:00Z`)) && new Date(`${s}T00:00:00Z`).toISOString().startsWith(s),
      {
        error: 'expected a date that exists, YYYY-MM-DD',
      },
    )
    .optional()
    .describe(what);

const refs = (what: string) => z.string().max(8000).optional().describe(`${what}, comma-separated.`);

export const uptimeReportQuerySchema = z.object({
  from: date(`The first day (in \`timezone\`), included; by default ${REPORT_DEFAULT_DAYS - 1} days before \`to\`.`),
  to: date('The last day (in `timezone`), included; today by default, and never after today.'),
  monitors: refs('Monitors by id or key'),
  components: refs('Components by id, or `<page slug>/<component key>`'),
  pages: refs('Pages by slug or id: the checks of the monitors their components show, pooled'),
  granularity: z.enum(['day', 'month']).default('day').describe('The series: one point per day, or per month.'),
  timezone: z
    .string()
    .max(64)
    .refine(isTimeZone, { error: 'expected an IANA time zone such as Europe/Berlin or UTC' })
    .default('UTC')
    .describe(
      "The days' time zone. In UTC (the default) days are the daily rollups, the page's 90-day bars; in another zone they are summed from the hourly rollups.",
    ),
  format: z
    .enum(['json', 'csv'])
    .optional()
    .describe('csv: one row per subject per period (as `Accept: text/csv`); json by default.'),
});

const figures = {
  checks: z.number().int().describe('Checks in the period, from the rollups.'),
  uptime: z.number().nullable().describe('Passing checks ÷ checks (degraded ones pass), 0..1; null without checks.'),
  availability: z
    .number()
    .nullable()
    .describe('`uptime` as a percentage, rounded as the page shows it: two decimals (three rather than read 100).'),
  downMinutes: z
    .number()
    .int()
    .nullable()
    .describe(
      "Estimated minutes down: each day's share of failed checks × the minutes it was watched (the bars' rule).",
    ),
  degradedMinutes: z.number().int().nullable().describe('Estimated minutes degraded, by the same rule.'),
  maintenanceMinutes: z
    .number()
    .int()
    .describe(
      'Minutes under a maintenance window covering the subject; reported beside the uptime, not taken out of it.',
    ),
  incidents: z.number().int().describe('Incidents naming the subject that were open during the period.'),
  recoveries: z
    .number()
    .int()
    .describe('Down spells that ended (to up or degraded) in the period, from state history.'),
  mttrMinutes: z.number().nullable().describe('Mean minutes from going down to recovering, over those recoveries.'),
};

export const uptimePointSchema = z.object({
  period: z.string().describe('The day (YYYY-MM-DD) or month (YYYY-MM).'),
  from: z.number().int().describe('Its first instant (epoch ms).'),
  to: z.number().int().describe('The instant after it (epoch ms).'),
  ...figures,
});

export const uptimeSubjectSchema = z.object({
  type: z.enum(['monitor', 'component', 'page']),
  id: z.string(),
  key: z.string().describe("The monitor's key, the component's `<page slug>/<key>`, the page's slug."),
  name: z.string(),
  summary: z.object(figures).describe('The whole range.'),
  series: z.array(uptimePointSchema).describe('One point per period, oldest first: ready for a chart.'),
});

export const uptimeReportSchema = z.object({
  from: z.string(),
  to: z.string(),
  timezone: z.string(),
  granularity: z.enum(['day', 'month']),
  generatedAt: z.number().int(),
  subjects: z.array(uptimeSubjectSchema),
});

export type UptimeReport = z.infer<typeof uptimeReportSchema>;
export type UptimeSubjectReport = z.infer<typeof uptimeSubjectSchema>;
export type UptimePoint = z.infer<typeof uptimePointSchema>;
