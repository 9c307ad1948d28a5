// The components section of the HTML status page: each component's state, live data and 90-day uptime strip.
import type { ChartRange, DailyBar, PageState, SnapshotComponent } from '../domain/snapshot.js';
import { chartRangeNavHtml, componentChartsHtml, DEFAULT_CHART_RANGE, hasCharts } from './html-charts.js';
import { type ComponentContext, stateReason } from './html-component-state.js';
import { joinHtml } from './html-join.js';
import { escapeHtml, stateIcon, timeHtml } from './html-layout.js';
import { htmlMessage } from './html-message.js';
import { playerListHtml } from './html-players.js';
import type { Translator } from './i18n/index.js';
import { countOfText, dayWord, durationText, stateWord, uptimeText } from './i18n/wording.js';
import { groupComponents, plainText } from './page-wording.js';

/** What the section shows beyond the components: the charts' window, and what raises components above their monitors. */
export interface ComponentsView extends ComponentContext {
  range: ChartRange;
  /** Query parameters the range links keep (`lang=de&`), already URL-safe; '' for none. */
  keepQuery: string;
}

const NO_VIEW: ComponentsView = { range: DEFAULT_CHART_RANGE, keepQuery: '', activeIncidents: [], maintenance: [] };

/** The "Components" section: groups in page order, each a card of components. */
export function componentsSectionHtml(
  i18n: Translator,
  components: SnapshotComponent[],
  view: ComponentsView = NO_VIEW,
): string {
  // The heading says what the strip shows: 90 days, or the last 30 on a phone (the stylesheet picks one).
  const uptimeRange =
    `<span class="days-90">${escapeHtml(i18n.t('components.uptimeRange'))}</span>` +
    `<span class="days-30">${escapeHtml(i18n.t('page.component.uptimeRange30'))}</span>`;
  const head =
    `<div class="block-head"><h2 id="components-title">${escapeHtml(i18n.t('components.title'))}</h2>` +
    (components.length > 0 ? `<p>${uptimeRange}</p>` : '') +
    (hasCharts(components) ? chartRangeNavHtml(i18n, view.range, view.keepQuery) : '') +
    '</div>';
  if (components.length === 0)
    return section(head + `<div class="card"><p class="empty">${escapeHtml(i18n.t('components.none'))}</p></div>`);
  const groups = groupComponents(components);
  const named = groups.some((g) => g.group !== null);
  const body = groups
    .map(({ group, components: members }) => {
      const list = `<ul class="list card">${members.map((component) => componentHtml(i18n, component, view)).join('')}</ul>`;
      if (!named) return list;
      const title = group === null ? i18n.t('components.otherGroup') : plainText(group);
      return `<section class="group"><h3>${escapeHtml(title)}</h3>${list}</section>`;
    })
    .join('');
  return section(head + body);
}

function section(inner: string): string {
  return `<section class="block" aria-labelledby="components-title">${inner}</section>`;
}

/** One state in words beside its icon, in the state's tone. */
function stateBadgeHtml(i18n: Translator, state: PageState): string {
  return `<span class="state t-${state}">${stateIcon(state)}${escapeHtml(stateWord(i18n, state))}</span>`;
}

function componentHtml(i18n: Translator, component: SnapshotComponent, view: ComponentsView): string {
  // An incident or maintenance may set the state: then "since" is its start, and a note gives the check's own result.
  const reason = stateReason(i18n, component, view);
  const since =
    reason.since !== null && component.state !== 'operational'
      ? `<span class="since">${htmlMessage(i18n, 'components.since', {}, { time: timeHtml(i18n, reason.since) })}</span>`
      : '';
  const description = component.description
    ? `<span class="component-desc">${escapeHtml(plainText(component.description))}</span>`
    : '';
  return (
    `<li class="component" data-testid="component" data-state="${component.state}" data-component-id="${escapeHtml(component.id)}">` +
    '<div class="component-head">' +
    `<p class="component-name">${escapeHtml(plainText(component.name))}${description}</p>` +
    `<p class="component-status">${stateBadgeHtml(i18n, component.state)}${since}</p>` +
    '</div>' +
    reason.noteHtml +
    unreachableHtml(i18n, component) +
    factsHtml(i18n, component, reason.noteHtml !== '') +
    joinHtml(i18n, component) +
    playerListHtml(i18n, component) +
    stripHtml(i18n, component) +
    componentChartsHtml(i18n, component, view.range) +
    '</li>'
  );
}

/** "unreachable: Router is down": on a page that shows it, the component's monitor is held behind a down parent. */
function unreachableHtml(i18n: Translator, component: SnapshotComponent): string {
  if (!component.unreachable) return '';
  const text = i18n.t('page.component.unreachable', { parent: plainText(component.unreachable.parent) });
  return `<p class="check-note" data-testid="unreachable">${escapeHtml(text)}</p>`;
}

/** `noted`: the check's result is in the state note already, so its message is not repeated. */
function factsHtml(i18n: Translator, component: SnapshotComponent, noted: boolean): string {
  const facts: string[] = [];
  const live = component.live;
  const fact = (
    key: 'components.players' | 'components.latency' | 'components.version' | 'components.uptime30d',
    value: string,
  ) => `<li>${htmlMessage(i18n, key, {}, { [FACT_ARGUMENT[key]]: `<b>${escapeHtml(value)}</b>` })}</li>`;
  if (live && live.players !== null)
    facts.push(fact('components.players', countOfText(i18n, live.players, live.maxPlayers)));
  if (live?.latencyMs != null)
    facts.push(fact('components.latency', i18n.t('components.latencyValue', { ms: Math.round(live.latencyMs) })));
  if (live?.version) facts.push(fact('components.version', plainText(live.version)));
  facts.push(fact('components.uptime30d', uptimeText(i18n, component.uptime['30d'])));
  let html = `<ul class="facts">${facts.join('')}</ul>`;
  const motd = live?.motd ? plainText(live.motd, { multiline: true }) : '';
  if (motd)
    html += `<p class="motd"><span class="sr-only">${escapeHtml(i18n.t('components.motd'))} </span>${escapeHtml(motd)}</p>`;
  const message = live?.message ? plainText(live.message) : '';
  if (message && component.state !== 'operational' && !noted) html += `<p class="motd">${escapeHtml(message)}</p>`;
  return html;
}

/** Which argument of each fact's message holds its value. */
const FACT_ARGUMENT = {
  'components.players': 'count',
  'components.latency': 'latency',
  'components.version': 'version',
  'components.uptime30d': 'uptime',
} as const;

/** 90 bars, oldest first; the strip is one image to assistive technology, summarised by its label. */
function stripHtml(i18n: Translator, component: SnapshotComponent): string {
  const days = component.days;
  if (days.length === 0) return '';
  const share = component.uptime['90d'];
  const known = share !== null && Number.isFinite(share);
  const ninety = known ? i18n.t('uptime.value', { uptime: uptimeText(i18n, share) }) : '';
  const bad = days.filter((day) => day.state === 'down' || day.state === 'degraded').length;
  const summary = i18n.t('components.stripSummary', {
    name: plainText(component.name),
    uptime: known ? ninety : i18n.t('components.stripNoData'),
    bad,
  });
  const bars = days.map((day) => barHtml(i18n, day)).join('');
  return (
    `<div class="strip" role="img" aria-label="${escapeHtml(summary)}">${bars}</div>` +
    `<div class="strip-legend" aria-hidden="true"><span><span class="days-90">${escapeHtml(i18n.t('components.daysAgo90'))}</span><span class="days-30">${escapeHtml(i18n.t('components.daysAgo30'))}</span></span>` +
    `<span class="mid">${escapeHtml(known ? ninety : i18n.t('components.noData'))}</span><span>${escapeHtml(i18n.t('components.today'))}</span></div>`
  );
}

const BAR_CLASS: Record<PageState, string> = {
  operational: 'o',
  degraded: 'g',
  down: 'd',
  maintenance: 'm',
  unknown: 'u',
};

function barHtml(i18n: Translator, day: DailyBar): string {
  const uptime =
    day.uptime === null || day.checks === 0
      ? i18n.t('uptime.noData')
      : i18n.t('uptime.value', { uptime: uptimeText(i18n, day.uptime) });
  // A day without data says so once, not "no data, no data".
  const state = day.state === 'unknown' ? '' : dayWord(i18n, day.state);
  const date = i18n.calendarDay(day.date);
  const lines = [
    state
      ? i18n.t('components.dayTitleWithState', { date, uptime, state })
      : i18n.t('components.dayTitle', { date, uptime }),
  ];
  if (day.downMinutes) lines.push(i18n.t('page.day.down', { duration: durationText(i18n, day.downMinutes * 60_000) }));
  for (const incident of day.incidents) lines.push(i18n.t('page.day.incident', { title: plainText(incident.title) }));
  // One line each: the tooltip without script, and the popover the page script fills from it (page-script.ts).
  return `<span class="${BAR_CLASS[day.state]}" title="${escapeHtml(lines.join('\n'))}"></span>`;
}
