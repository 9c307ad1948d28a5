// The monthly uptime report mailed to an organization's owners: each monitor's availability, minutes down, incidents
// and MTTR over the last month, as text and an HTML table, with the month's CSV attached.
import { type EmailMessage, escapeHtml, messageId } from '../channels/email.js';
import { type MailSender, senderAddress } from './smtp.js';

export interface MonthlyReportRow {
  name: string;
  key: string;
  availability: number | null;
  downMinutes: number | null;
  incidents: number;
  mttrMinutes: number | null;
}

export interface MonthlyReportMail {
  to: string;
  from: MailSender;
  now: number;
  organization: { id: string; name: string };
  /** YYYY-MM */
  month: string;
  rows: MonthlyReportRow[];
  /** The report as CSV (services/reports/uptime-csv.ts). */
  csv: string;
  /** Where the report can be read again (the API's address of it). */
  link: string;
}

const shown = (value: number | null, unit = '') => (value === null ? '–' : `${value}${unit}`);

export function buildMonthlyReportMail(mail: MonthlyReportMail): EmailMessage {
  const subject = `Uptime report for ${mail.organization.name}, ${mail.month}`;
  const lines = mail.rows.map(
    (r) =>
      `${r.name} (${r.key}): ${shown(r.availability, '%')} available, ${shown(r.downMinutes)} min down, ${r.incidents} incident(s), MTTR ${shown(r.mttrMinutes, ' min')}`,
  );
  const text = [subject, '', ...(lines.length > 0 ? lines : ['No monitors.']), '', `The report: ${mail.link}`].join(
    '\n',
  );
  const cell = (value: string) =>
    `<td style="padding:4px 8px;border-bottom:1px solid #e5e7eb">${escapeHtml(value)}</td>`;
  const rows = mail.rows
    .map(
      (r) =>
        `<tr>${cell(r.name)}${cell(shown(r.availability, '%'))}${cell(shown(r.downMinutes))}${cell(String(r.incidents))}${cell(shown(r.mttrMinutes))}</tr>`,
    )
    .join('');
  const head = ['Monitor', 'Availability', 'Minutes down', 'Incidents', 'MTTR (min)']
    .map((h) => `<th style="text-align:left;padding:4px 8px">${h}</th>`)
    .join('');
  const html =
    '<!doctype html><html><body style="margin:0;padding:16px;background:#ffffff">' +
    '<div style="font-family:-apple-system,Segoe UI,Roboto,Helvetica,Arial,sans-serif;font-size:14px;color:#111827">' +
    `<h1 style="font-size:18px">${escapeHtml(subject)}</h1>` +
    `<table style="border-collapse:collapse"><thead><tr>${head}</tr></thead><tbody>${rows}</tbody></table>` +
    `<p style="color:#6b7280">The report: <a href="${escapeHtml(mail.link)}">${escapeHtml(mail.link)}</a></p>` +
    '</div></body></html>';
  const from =
    typeof mail.from === 'string' ? mail.from : { name: mail.from.name ?? 'Warden', address: mail.from.address };
  return {
    from,
    to: [mail.to],
    subject,
    text,
    html,
    // Stable: the same month's report to the same owner is one message, should it ever be sent twice.
    messageId: messageId(`report.${mail.organization.id}.${mail.month}.${mail.to}`, senderAddress(mail.from)),
    date: new Date(mail.now),
    headers: { 'Auto-Submitted': 'auto-generated', 'X-Warden-Event': 'monthly-report' },
    attachments: [{ filename: `uptime-${mail.month}.csv`, content: mail.csv, contentType: 'text/csv; charset=utf-8' }],
  };
}
