// A page's uptime history as HTML: a month calendar (Monday first) of days coloured by their state, each titled with
// its uptime, and the incidents of the month listed under it, in the reader's language (the page's, their pick or
// their browser's, as every public form). Self-contained: its one stylesheet is allowed by hash.
import { createHash } from 'node:crypto';
import { LANGUAGE_NAMES, PAGE_LANGUAGES, type PageLanguage } from '../domain/languages.js';
import { MONTHS } from '../domain/recurrence-text.js';
import type { HistoryDay, PageHistory } from '../domain/uptime-report.js';
import { escapeHtml } from './html-layout.js';
import { htmlMessage } from './html-message.js';
import { FORMAT_LOCALE, type Translator, translator } from './i18n/index.js';
import { impactWord, stateWord, uptimeText } from './i18n/wording.js';

const CSS = [
  'body{font-family:system-ui,sans-serif;margin:2rem auto;max-width:44rem;padding:0 1rem;color:#1f2937}',
  'table{border-collapse:separate;border-spacing:4px;width:100%}',
  'th{font-weight:500;font-size:.8rem;color:#6b7280}',
  'td{height:3.2rem;border-radius:6px;vertical-align:top;padding:4px;font-size:.8rem;background:#f3f4f6}',
  'td.operational{background:#bbf7d0}td.degraded{background:#fde68a}td.down{background:#fca5a5}',
  'td.maintenance{background:#bfdbfe}td.blank{background:none}',
  'td small{display:block;color:#374151}nav{display:flex;justify-content:space-between;margin:1rem 0}',
  'li{margin:.3rem 0}footer ul{list-style:none;padding:0;display:flex;flex-wrap:wrap;gap:.8rem;font-size:.85rem}',
].join('');

const STYLE_HASH = `sha256-${createHash('sha256').update(CSS).digest('base64')}`;

/** The policy of the history document: nothing but its own stylesheet; no script, no frame. */
export const HISTORY_CONTENT_SECURITY_POLICY = `default-src 'none'; style-src '${STYLE_HASH}'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'`;

export interface HistoryRenderOptions {
  /** The reader's words: the page's language (or their pick, or their browser's) in the page's time zone. */
  i18n?: Translator;
  /** The language the reader picked (?lang): the document's links keep it. */
  picked?: PageLanguage | undefined;
}

/** `basePath`: `/s/{slug}`, or '' on the page's custom domain. */
export function renderUptimeHistory(
  history: PageHistory,
  basePath: string,
  options: HistoryRenderOptions = {},
): string {
  const i18n = options.i18n ?? translator();
  const lang = options.picked ? `lang=${options.picked}` : '';
  const month = monthName(i18n.language, history.month);
  const first = history.days[0];
  // Monday first: blanks before the 1st.
  const lead = first ? (new Date(`${first.date}T00:00:00Z`).getUTCDay() + 6) % 7 : 0;
  const cells = [
    ...Array.from({ length: lead }, () => '<td class="blank"></td>'),
    ...history.days.map((d) => dayCell(i18n, d)),
  ];
  const rows: string[] = [];
  for (let i = 0; i < cells.length; i += 7) rows.push(`<tr>${cells.slice(i, i + 7).join('')}</tr>`);
  const link = (to: string | null, key: 'history.previous' | 'history.next') =>
    to === null
      ? '<span></span>'
      : `<a href="${escapeHtml(`${basePath}/history?month=${to}${lang ? `&${lang}` : ''}`)}">${escapeHtml(i18n.t(key))}</a>`;
  const current = `${basePath || '/'}${lang ? `?${lang}` : ''}`;
  const uptime = `<strong>${escapeHtml(uptimeText(i18n, history.uptime))}</strong>`;
  const heads = weekdayNames(i18n.language)
    .map((day) => `<th>${escapeHtml(day)}</th>`)
    .join('');
  return `<!doctype html>
<html lang="${i18n.language}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>${escapeHtml(i18n.t('history.documentTitle', { title: history.page.title, month }))}</title><style>${CSS}</style></head>
<body><h1>${escapeHtml(history.page.title)}</h1>
<p>${htmlMessage(i18n, 'history.monthUptime', { month }, { uptime })} ${escapeHtml(i18n.t('history.utcDays'))} <a href="${escapeHtml(current)}">${escapeHtml(i18n.t('history.currentStatus'))}</a></p>
<nav>${link(history.previous, 'history.previous')}${link(history.next, 'history.next')}</nav>
<table><caption>${escapeHtml(i18n.t('history.calendar', { month }))}</caption><thead><tr>${heads}</tr></thead>
<tbody>${rows.join('\n')}</tbody></table>
<h2>${escapeHtml(i18n.t('history.incidents'))}</h2>${incidentsHtml(i18n, history)}
<footer>${languageLinks(i18n, history.month)}</footer>
</body></html>`;
}

function dayCell(i18n: Translator, d: HistoryDay): string {
  const uptime = uptimeText(i18n, d.uptime);
  const lines = [i18n.t('history.day', { date: i18n.calendarDay(d.date), state: stateWord(i18n, d.state), uptime })];
  if (d.incidents.length > 0) lines.push(i18n.t('history.dayIncidents', { count: d.incidents.length }));
  const label = escapeHtml(lines.join(', '));
  const marks = d.incidents.length > 0 ? `<small>${d.incidents.length} ⚠</small>` : '';
  return `<td class="${d.state}" title="${label}" aria-label="${label}">${Number(d.date.slice(8))}<small>${escapeHtml(uptime)}</small>${marks}</td>`;
}

function incidentsHtml(i18n: Translator, history: PageHistory): string {
  if (history.incidents.length === 0) return `<p>${escapeHtml(i18n.t('history.noIncidents'))}</p>`;
  const items = history.incidents.map((i) => {
    const span =
      i.resolvedAt === null
        ? i18n.t('history.ongoing', { start: i18n.dateTime(i.startedAt) })
        : i18n.dateRange(i.startedAt, i.resolvedAt);
    return `<li><strong>${escapeHtml(i.title)}</strong> (${escapeHtml(impactWord(i18n, i.impact))}) — ${escapeHtml(span)}</li>`;
  });
  return `<ul>${items.join('')}</ul>`;
}

/** The reader's pick of language, without script: each language named in itself, keeping the month. */
function languageLinks(i18n: Translator, month: string): string {
  const items = PAGE_LANGUAGES.map(
    (language) =>
      `<li><a href="?month=${month}&amp;lang=${language}" hreflang="${language}" lang="${language}"${language === i18n.language ? ' aria-current="true"' : ''}>${escapeHtml(LANGUAGE_NAMES[language])}</a></li>`,
  ).join('');
  return `<nav aria-label="${escapeHtml(i18n.t('page.language'))}"><ul>${items}</ul></nav>`;
}

const ENGLISH_WEEKDAYS = ['Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat', 'Sun'];
/** A Monday (2024-01-01), the first of the seven days the headings name. */
const A_MONDAY = Date.UTC(2024, 0, 1);

/**
 * "March 2026" in the reader's language ("März 2026", "marzec 2026"); English without Intl, which would load ICU's
 * data on a server of English pages (english.ts).
 */
function monthName(language: PageLanguage, month: string): string {
  const [year, number] = month.split('-').map(Number);
  if (language === 'en') return `${MONTHS[(number ?? 1) - 1]} ${year}`;
  const format = new Intl.DateTimeFormat(FORMAT_LOCALE[language], {
    month: 'long',
    year: 'numeric',
    timeZone: 'UTC',
  });
  return format.format(Date.UTC(year ?? 1970, (number ?? 1) - 1, 1));
}

/** The days of the week, Monday first, short ("Mon", "Mo.", "lun."). */
function weekdayNames(language: PageLanguage): string[] {
  if (language === 'en') return ENGLISH_WEEKDAYS;
  const format = new Intl.DateTimeFormat(FORMAT_LOCALE[language], { weekday: 'short', timeZone: 'UTC' });
  return Array.from({ length: 7 }, (_, i) => format.format(A_MONDAY + i * 86_400_000));
}
