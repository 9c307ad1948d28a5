// A page's uptime history as HTML: a month calendar (Monday first) of days coloured by their state, each titled with
// its uptime, and the incidents of the month listed under it. Self-contained: its one stylesheet is allowed by hash.
import { createHash } from 'node:crypto';
import type { PageHistory } from '../domain/uptime-report.js';
import { escapeHtml } from './html-layout.js';

const CSS = [
  'body{font-family:system-ui,sans-serif;margin:2rem auto;max-width:44rem;padding:0 1rem;color:#1f2937}',
  'table{border-collapse:separate;border-spacing:4px;width:100%}',
  'th{font-weight:500;font-size:.8rem;color:#6b7280}',
  'td{height:3.2rem;border-radius:6px;vertical-align:top;padding:4px;font-size:.8rem;background:#f3f4f6}',
  'td.operational{background:#bbf7d0}td.degraded{background:#fde68a}td.down{background:#fca5a5}',
  'td.maintenance{background:#bfdbfe}td.blank{background:none}',
  'td small{display:block;color:#374151}nav{display:flex;justify-content:space-between;margin:1rem 0}',
  'li{margin:.3rem 0}',
].join('');

const STYLE_HASH = `sha256-${createHash('sha256').update(CSS).digest('base64')}`;

/** The policy of the history document: nothing but its own stylesheet; no script, no frame. */
export const HISTORY_CONTENT_SECURITY_POLICY = `default-src 'none'; style-src '${STYLE_HASH}'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'`;

const percent = (availability: number | null) => (availability === null ? 'no data' : `${availability}%`);

export function renderUptimeHistory(history: PageHistory, basePath: string): string {
  const title = `${history.page.title}: uptime in ${history.month}`;
  const first = history.days[0];
  // Monday first: blanks before the 1st.
  const lead = first ? (new Date(`${first.date}T00:00:00Z`).getUTCDay() + 6) % 7 : 0;
  const cells = [
    ...Array.from({ length: lead }, () => '<td class="blank"></td>'),
    ...history.days.map((d) => {
      const label = `${d.date}: ${d.state}, ${percent(d.availability)}${d.incidents.length > 0 ? `, ${d.incidents.length} incident(s)` : ''}`;
      const marks = d.incidents.length > 0 ? `<small>${d.incidents.length} ⚠</small>` : '';
      return `<td class="${d.state}" title="${escapeHtml(label)}" aria-label="${escapeHtml(label)}">${Number(d.date.slice(8))}<small>${escapeHtml(percent(d.availability))}</small>${marks}</td>`;
    }),
  ];
  const rows: string[] = [];
  for (let i = 0; i < cells.length; i += 7) rows.push(`<tr>${cells.slice(i, i + 7).join('')}</tr>`);
  const link = (month: string | null, text: string) =>
    month === null ? '<span></span>' : `<a href="${escapeHtml(`${basePath}/history?month=${month}`)}">${text}</a>`;
  const incidents =
    history.incidents.length === 0
      ? '<p>No incidents this month.</p>'
      : `<ul>${history.incidents
          .map(
            (i) =>
              `<li><strong>${escapeHtml(i.title)}</strong> (${escapeHtml(i.impact)}) — ${new Date(i.startedAt).toISOString().slice(0, 16).replace('T', ' ')} UTC${
                i.resolvedAt === null
                  ? ', ongoing'
                  : ` to ${new Date(i.resolvedAt).toISOString().slice(0, 16).replace('T', ' ')} UTC`
              }</li>`,
          )
          .join('')}</ul>`;
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>${escapeHtml(title)}</title><style>${CSS}</style></head>
<body><h1>${escapeHtml(history.page.title)}</h1>
<p>Uptime in ${escapeHtml(history.month)}: <strong>${escapeHtml(percent(history.availability))}</strong> (days in UTC). <a href="${escapeHtml(basePath)}">Current status</a></p>
<nav>${link(history.previous, '← Previous month')}${link(history.next, 'Next month →')}</nav>
<table><thead><tr><th>Mon</th><th>Tue</th><th>Wed</th><th>Thu</th><th>Fri</th><th>Sat</th><th>Sun</th></tr></thead>
<tbody>${rows.join('\n')}</tbody></table>
<h2>Incidents</h2>${incidents}
</body></html>`;
}
