// The components section of the HTML status page: each component's state, live data and 90-day uptime strip.
import type { DailyBar, PageState, SnapshotComponent } from '../domain/snapshot.js';
import { escapeHtml, stateIcon, timeHtml } from './html-layout.js';
import {
  DAY_WORD,
  formatCount,
  formatPlayers,
  formatUptime,
  groupComponents,
  plainText,
  STATE_WORD,
} from './page-wording.js';

/** The "Components" section: groups in page order, each a card of components. */
export function componentsSectionHtml(components: SnapshotComponent[]): string {
  const head =
    '<div class="block-head"><h2 id="components-title">Components</h2>' +
    (components.length > 0 ? '<p>Uptime over the past 90 days</p>' : '') +
    '</div>';
  if (components.length === 0)
    return section(head + '<div class="card"><p class="empty">No components on this page yet.</p></div>');
  const groups = groupComponents(components);
  const named = groups.some((g) => g.group !== null);
  const body = groups
    .map(({ group, components: members }) => {
      const list = `<ul class="list card">${members.map(componentHtml).join('')}</ul>`;
      if (!named) return list;
      const title = group === null ? 'Other' : plainText(group);
      return `<section class="group"><h3>${escapeHtml(title)}</h3>${list}</section>`;
    })
    .join('');
  return section(head + body);
}

function section(inner: string): string {
  return `<section class="block" aria-labelledby="components-title">${inner}</section>`;
}

/** One state in words beside its icon, in the state's tone. */
function stateBadgeHtml(state: PageState): string {
  return `<span class="state t-${state}">${stateIcon(state)}${escapeHtml(STATE_WORD[state])}</span>`;
}

function componentHtml(component: SnapshotComponent): string {
  const since =
    component.since !== null && component.state !== 'operational'
      ? `<span class="since">since ${timeHtml(component.since)}</span>`
      : '';
  const description = component.description
    ? `<span class="component-desc">${escapeHtml(plainText(component.description))}</span>`
    : '';
  return (
    `<li class="component" data-testid="component" data-state="${component.state}" data-component-id="${escapeHtml(component.id)}">` +
    '<div class="component-head">' +
    `<p class="component-name">${escapeHtml(plainText(component.name))}${description}</p>` +
    `<p class="component-status">${stateBadgeHtml(component.state)}${since}</p>` +
    '</div>' +
    factsHtml(component) +
    stripHtml(component) +
    '</li>'
  );
}

function factsHtml(component: SnapshotComponent): string {
  const facts: string[] = [];
  const live = component.live;
  const players = live ? formatPlayers(live.players, live.maxPlayers) : null;
  if (live && players !== null) {
    const count = live.maxPlayers === null ? formatCount(live.players ?? 0) : `${formatCount(live.players ?? 0)} / ${formatCount(live.maxPlayers)}`;
    facts.push(`<li>Players <b>${count}</b></li>`);
  }
  if (live?.latencyMs != null) facts.push(`<li>Latency <b>${Math.round(live.latencyMs)} ms</b></li>`);
  if (live?.version) facts.push(`<li>Version <b>${escapeHtml(plainText(live.version))}</b></li>`);
  facts.push(`<li>30 days <b>${formatUptime(component.uptime['30d'])}</b></li>`);
  let html = `<ul class="facts">${facts.join('')}</ul>`;
  const motd = live?.motd ? plainText(live.motd, { multiline: true }) : '';
  if (motd) html += `<p class="motd"><span class="sr-only">Message of the day: </span>${escapeHtml(motd)}</p>`;
  const message = live?.message ? plainText(live.message) : '';
  if (message && component.state !== 'operational') html += `<p class="motd">${escapeHtml(message)}</p>`;
  return html;
}

/** 90 bars, oldest first; the strip is one image to assistive technology, summarised by its label. */
function stripHtml(component: SnapshotComponent): string {
  const days = component.days;
  if (days.length === 0) return '';
  const ninety = formatUptime(component.uptime['90d']);
  const bad = days.filter((day) => day.state === 'down' || day.state === 'degraded').length;
  const summary =
    `${plainText(component.name)}: ${ninety === 'no data' ? 'no uptime data' : `${ninety} uptime`} over the past 90 days` +
    (bad > 0 ? `, ${bad} day${bad === 1 ? '' : 's'} with issues` : ', no days with issues');
  const bars = days.map(barHtml).join('');
  return (
    `<div class="strip" role="img" aria-label="${escapeHtml(summary)}">${bars}</div>` +
    '<div class="strip-legend" aria-hidden="true"><span><span class="days-90">90 days ago</span><span class="days-30">30 days ago</span></span>' +
    `<span class="mid">${ninety === 'no data' ? 'No data' : `${ninety} uptime`}</span><span>Today</span></div>`
  );
}

const BAR_CLASS: Record<PageState, string> = { operational: 'o', degraded: 'g', down: 'd', maintenance: 'm', unknown: 'u' };

function barHtml(day: DailyBar): string {
  const uptime = day.uptime === null || day.checks === 0 ? 'no data' : `${formatUptime(day.uptime)} uptime`;
  const word = DAY_WORD[day.state];
  const title = `${day.date}: ${uptime}${word && word !== 'no data' ? `, ${word}` : ''}`;
  return `<span class="${BAR_CLASS[day.state]}" title="${escapeHtml(title)}"></span>`;
}
