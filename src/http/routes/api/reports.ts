// Reports: uptime and SLA figures of monitors, components and pages over a range of days, as JSON or CSV.
import type { MiddlewareHandler } from 'hono';
import { uptimeReport } from '../../../services/reports/uptime.js';
import { uptimeCsvFilename, uptimeReportCsv } from '../../../services/reports/uptime-csv.js';
import {
  REPORT_MAX_DAYS,
  REPORT_MAX_SUBJECTS,
  type UptimeReport,
  uptimeReportQuerySchema,
  uptimeReportSchema,
} from '../../../services/reports/uptime-schema.js';
import type { App } from '../../env.js';
import { type ApiGuards, apiOperation } from './operation.js';

const UPTIME_PATH = '/api/v1/reports/uptime';

export function reportRoutes(app: App, guards: ApiGuards): void {
  app.use(UPTIME_PATH, csvWhenAsked);
  apiOperation(app, guards, {
    tag: 'reports',
    path: UPTIME_PATH,
    method: 'get',
    summary: 'Uptime report',
    description: `Availability, estimated downtime and degraded minutes, maintenance minutes, incidents and mean time to recover of monitors, components and pages (all monitors when none are named; at most ${REPORT_MAX_SUBJECTS}), over up to ${REPORT_MAX_DAYS} days, with a series per day or month for a chart. From the rollups: a UTC day's figures are those of the page's 90-day bar. \`?format=csv\` or \`Accept: text/csv\` answers CSV (text/csv, an attachment), one row per subject per period.`,
    scope: 'read',
    query: uptimeReportQuerySchema,
    ok: { status: 200, schema: uptimeReportSchema.openapi('UptimeReport'), description: 'The report.' },
    run: uptimeReport,
  });
}

/** Whether the caller asked for CSV: `?format=csv`, or `Accept: text/csv` without `?format=json`. */
function wantsCsv(format: string | undefined, accept: string | undefined): boolean {
  if (format !== undefined) return format === 'csv';
  return accept !== undefined && /(^|,)\s*text\/csv\s*(;|,|$)/i.test(accept);
}

/** The report the operation answered as JSON, written as CSV when asked; problems stay problem+json. */
const csvWhenAsked: MiddlewareHandler = async (c, next) => {
  await next();
  c.header('Vary', 'Accept', { append: true });
  if (c.res.status !== 200 || !wantsCsv(c.req.query('format'), c.req.header('accept'))) return;
  const report = (await c.res.json()) as UptimeReport;
  const headers = new Headers(c.res.headers);
  headers.delete('content-length');
  headers.delete('content-encoding');
  headers.set('content-type', 'text/csv; charset=utf-8');
  headers.set('content-disposition', `attachment; filename="${uptimeCsvFilename(report)}"`);
  c.res = new Response(uptimeReportCsv(report), { status: 200, headers });
};
