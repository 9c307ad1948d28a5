// The embed's larger views: the full widget's components and active incidents, and the widget of one component.
import type { Snapshot, SnapshotComponent, SnapshotIncident } from '../domain/snapshot.js';
import { joinHtml } from './html-join.js';
import { escapeHtml } from './html-layout.js';
import { playerListHtml } from './html-players.js';
import { PLAYERS_EMBED_CSS } from './html-players-css.js';
import type { Translator } from './i18n/index.js';
import { countOfText } from './i18n/wording.js';
import { groupComponents, plainText } from './page-wording.js';

/**
 * The component `?component=` names: by id first, then by name (case and surrounding spaces ignored). '' names none
 * (what embedCanonicalOptions makes of a name the page lacks).
 */
export function findComponent(snapshot: Snapshot, ref: string): SnapshotComponent | undefined {
  if (ref === '') return undefined;
  const byId = snapshot.components.find((c) => c.id === ref);
  if (byId) return byId;
  const name = ref.trim().toLowerCase();
  return snapshot.components.find((c) => c.name.trim().toLowerCase() === name);
}

/** Below the overall line of the full widget: the components (by group when the page names groups), then active incidents. */
export function fullPartsHtml(snapshot: Snapshot, t: Translator): string {
  const groups = groupComponents(snapshot.components);
  const named = groups.some((g) => g.group !== null);
  const lists = groups
    .map(({ group, components }) => {
      const heading = named
        ? `<h2 class="group">${escapeHtml(group === null ? t.t('components.otherGroup') : plainText(group))}</h2>`
        : '';
      return `${heading}<ul class="components">${components.map((c) => componentItemHtml(c, t)).join('')}</ul>`;
    })
    .join('');
  const components =
    snapshot.components.length === 0
      ? ''
      : `<section class="part" aria-label="${escapeHtml(t.t('components.title'))}">${lists}</section>`;
  return components + incidentsHtml(snapshot.activeIncidents, snapshot.page.url, t);
}

/** One row of the full widget: state dot, name, players online (game servers), the state in words. */
function componentItemHtml(component: SnapshotComponent, t: Translator): string {
  const players = componentPlayers(component, t);
  return (
    `<li class="component t-${component.state}" data-testid="embed-component" data-component-id="${escapeHtml(component.id)}" data-state="${component.state}">` +
    '<span class="dot" aria-hidden="true"></span>' +
    `<span class="cname">${escapeHtml(plainText(component.name))}</span>` +
    (players ? `<span class="cplayers">${escapeHtml(t.t('embed.playersOnline', { players }))}</span>` : '') +
    `<span class="cstate">${escapeHtml(t.t(`state.${component.state}`))}</span>` +
    playerListHtml(t, component, 'embed-players') +
    '</li>'
  );
}

function incidentsHtml(incidents: SnapshotIncident[], pageUrl: string, t: Translator): string {
  if (incidents.length === 0) return '';
  const items = incidents
    .map(
      (incident) =>
        `<li class="incident" data-testid="embed-incident"><a href="${escapeHtml(pageUrl)}" target="_blank" rel="noopener">${escapeHtml(plainText(incident.title))}</a>` +
        ` <span class="istatus">${escapeHtml(t.t(`incident.status.${incident.status}`))}</span></li>`,
    )
    .join('');
  return `<section class="part" aria-labelledby="embed-incidents"><h2 class="group" id="embed-incidents">${escapeHtml(t.t('incidents.active'))}</h2><ul class="incidents">${items}</ul></section>`;
}

/**
 * The widget of one component: its state dot, name (linking to the page), state in words with its latency, and its
 * players online. Undefined component: the page has none by that name or id, which the widget says.
 */
export function componentWidgetHtml(
  snapshot: Snapshot,
  component: SnapshotComponent | undefined,
  t: Translator,
): string {
  const title = plainText(snapshot.page.title) || snapshot.page.slug;
  const url = escapeHtml(snapshot.page.url);
  if (!component)
    return (
      '<div class="widget t-unknown" data-testid="embed" data-state="unknown"><div class="content"><div class="row">' +
      '<span class="dot" aria-hidden="true"></span><div class="text">' +
      `<p class="name"><a class="open" href="${url}" target="_blank" rel="noopener" data-testid="embed-link" aria-label="${escapeHtml(t.t('embed.open', { title }))}">${escapeHtml(title)}<span class="arrow" aria-hidden="true">↗</span></a></p>` +
      `<p class="status" data-testid="embed-missing">${escapeHtml(t.t('embed.unknownComponent'))}</p>` +
      '</div></div></div></div>'
    );
  const name = plainText(component.name) || component.id;
  const latency = component.live?.latencyMs;
  const players = componentPlayers(component, t);
  return (
    `<div class="widget t-${component.state}" data-testid="embed" data-state="${component.state}" data-component-id="${escapeHtml(component.id)}"><div class="content"><div class="row">` +
    '<span class="dot" aria-hidden="true"></span><div class="text">' +
    `<p class="name"><a class="open" href="${url}" target="_blank" rel="noopener" data-testid="embed-link" aria-label="${escapeHtml(t.t('embed.openComponent', { component: name, title }))}">${escapeHtml(name)}<span class="arrow" aria-hidden="true">↗</span></a></p>` +
    `<p class="status"><span class="label" data-testid="embed-label">${escapeHtml(t.t(`state.${component.state}`))}</span>` +
    (latency == null
      ? ''
      : `<span class="latency" data-testid="embed-latency"> · ${escapeHtml(t.t('embed.latency', { latency: t.t('components.latencyValue', { ms: Math.round(latency) }) }))}</span>`) +
    '</p></div>' +
    (players
      ? `<p class="players" data-testid="embed-players"><b class="count">${escapeHtml(players)}</b> <span>${escapeHtml(t.t('embed.online'))}</span></p>`
      : '') +
    `</div>${joinHtml(t, component)}${playerListHtml(t, component, 'embed-players')}</div></div>`
  );
}

/** "87 / 200", "9", or '' for a component that reports no players. */
function componentPlayers(component: SnapshotComponent, t: Translator): string {
  const live = component.live;
  if (!live || live.players === null) return '';
  // In the reader's locale, like the compact widget's script when it updates them.
  return countOfText(t, live.players, live.maxPlayers);
}

/** The views' rules, after the widget's own (EMBED_CSS): rows of components and incidents under a rule. */
export const EMBED_VIEWS_CSS = [
  '.part{margin-top:10px;padding-top:6px;border-top:1px solid var(--border)}',
  '.group{margin:6px 0 2px;font-size:12px;font-weight:600;color:var(--muted)}',
  '.components,.incidents{list-style:none;margin:0;padding:0}',
  '.component{display:flex;flex-wrap:wrap;align-items:center;gap:0 8px;padding:3px 0;font-size:13px}',
  '.component .who{flex:1 0 100%;margin:0 0 2px 16px}',
  '.component .dot{width:8px;height:8px;box-shadow:none}',
  '.cname{flex:1 1 auto;min-width:0;white-space:nowrap;overflow:hidden;text-overflow:ellipsis}',
  '.cplayers{flex:none;font-size:12px;color:var(--muted);font-variant-numeric:tabular-nums}',
  '.cstate{flex:none;font-size:12px;font-weight:600;color:var(--tone)}',
  '.incident{padding:3px 0;font-size:13px;overflow-wrap:anywhere}',
  '.incident a{color:var(--text);font-weight:600}',
  '.incident a:hover{color:var(--link)}',
  '.incident a:focus-visible{outline:2px solid var(--link);outline-offset:2px;border-radius:4px}',
  '.istatus{font-size:12px;color:var(--muted)}',
  '.latency{color:var(--muted)}',
  '@media (max-width:300px){.cplayers{display:none}}',
  PLAYERS_EMBED_CSS,
].join('');
