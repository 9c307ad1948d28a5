// An uptime report as CSV (RFC 4180): one row per subject per period, a header row first, CRLF line ends.
import type { UptimeReport } from './uptime-schema.js';

const COLUMNS = [
  'subject_type',
  'subject_id',
  'subject_key',
  'subject_name',
  'period',
  'checks',
  'uptime',
  'availability_percent',
  'down_minutes',
  'degraded_minutes',
  'maintenance_minutes',
  'incidents',
  'recoveries',
  'mttr_minutes',
] as const;

/**
 * A field quoted when it holds a comma, quote or line break (quotes doubled); one a spreadsheet would run as a formula
 * (=, +, -, @ first) is prefixed with a quote mark, as OWASP advises for CSV exports of user text (names).
 */
export function csvField(value: string | number | null): string {
  if (value === null) return '';
  if (typeof value === 'number') return String(value);
  const safe = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(safe) ? `"${safe.replaceAll('"', '""')}"` : safe;
}

export function uptimeReportCsv(report: UptimeReport): string {
  const rows: (string | number | null)[][] = [[...COLUMNS]];
  for (const s of report.subjects)
    for (const p of s.series)
      rows.push([
        s.type,
        s.id,
        s.key,
        s.name,
        p.period,
        p.checks,
        p.uptime,
        p.availability,
        p.downMinutes,
        p.degradedMinutes,
        p.maintenanceMinutes,
        p.incidents,
        p.recoveries,
        p.mttrMinutes,
      ]);
  return `${rows.map((row) => row.map(csvField).join(',')).join('\r\n')}\r\n`;
}

/** The attachment's name: `uptime-<from>-<to>.csv`. */
export function uptimeCsvFilename(report: Pick<UptimeReport, 'from' | 'to'>): string {
  return `uptime-${report.from}-${report.to}.csv`;
}
