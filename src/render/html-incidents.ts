// The incident and maintenance sections of the HTML status page: what is wrong now, what is planned, what happened lately.
import type { Snapshot, SnapshotIncident, SnapshotMaintenance } from '../domain/snapshot.js';
import { impactToPageState } from '../domain/states.js';
import { escapeHtml, timeHtml } from './html-layout.js';
import { htmlMessage } from './html-message.js';
import type { Translator } from './i18n/index.js';
import { durationText, impactWord, incidentStatusWord } from './i18n/wording.js';
import { plainText } from './page-wording.js';

/** Active incidents, most prominent first on the page; nothing when there are none. */
export function activeIncidentsHtml(i18n: Translator, incidents: SnapshotIncident[]): string {
  if (incidents.length === 0) return '';
  const items = incidents.map(
    (incident) =>
      `<article class="incident ${tone(incident)}"><h3>${escapeHtml(plainText(incident.title))}</h3>` +
      `${incidentMeta(i18n, incident, 'p')}${timeline(i18n, incident)}</article>`,
  );
  return block('active-incidents', i18n.t('incidents.active'), `<div class="card">${items.join('')}</div>`);
}

/** Maintenance in progress and upcoming; nothing when none is planned. */
export function maintenanceHtml(i18n: Translator, maintenance: Snapshot['maintenance']): string {
  const windows = [...maintenance.active, ...maintenance.upcoming];
  if (windows.length === 0) return '';
  return block(
    'maintenance',
    i18n.t('incidents.maintenance'),
    `<div class="card">${windows.map((window) => maintenanceItem(i18n, window)).join('')}</div>`,
  );
}

/** Resolved incidents of the last 14 days, each folded to one line until opened. */
export function recentIncidentsHtml(i18n: Translator, incidents: SnapshotIncident[], activeCount = 0): string {
  // Under an active incident, "no incidents" would contradict the section above: the history holds resolved ones.
  const none = activeCount > 0 ? i18n.t('page.history.noneResolved') : i18n.t('incidents.noneRecent');
  const body =
    incidents.length === 0
      ? `<p class="empty">${escapeHtml(none)}</p>`
      : incidents
          .map((incident) => {
            // A summary may hold a heading and phrasing content only, hence spans for the facts.
            const summary = `<summary><h3>${escapeHtml(plainText(incident.title))}</h3>${incidentMeta(i18n, incident, 'span')}</summary>`;
            return `<details class="incident ${tone(incident)}">${summary}${timeline(i18n, incident)}</details>`;
          })
          .join('');
  return block('recent-incidents', i18n.t('incidents.recent'), `<div class="card">${body}</div>`);
}

function block(id: string, title: string, inner: string): string {
  return `<section class="block" aria-labelledby="${id}-title"><h2 id="${id}-title">${escapeHtml(title)}</h2>${inner}</section>`;
}

function tone(incident: SnapshotIncident): string {
  const state = impactToPageState(incident.impact);
  return `t-${state === 'operational' ? 'maintenance' : state}`;
}

function incidentMeta(i18n: Translator, incident: SnapshotIncident, tag: 'p' | 'span'): string {
  const parts = [
    // The status pill has its own tone: a resolved major incident reads green, not red.
    `<span class="pill${incident.status === 'resolved' ? ' t-operational' : ''}">${escapeHtml(incidentStatusWord(i18n, incident.status))}</span>`,
    escapeHtml(impactWord(i18n, incident.impact)),
    htmlMessage(i18n, 'incidents.started', {}, { time: timeHtml(i18n, incident.startedAt) }),
  ];
  if (incident.resolvedAt !== null)
    parts.push(
      htmlMessage(
        i18n,
        'incidents.resolvedAfter',
        { duration: durationText(i18n, incident.resolvedAt - incident.startedAt) },
        { time: timeHtml(i18n, incident.resolvedAt) },
      ),
    );
  let html = `<${tag} class="incident-meta">${parts.join(' · ')}</${tag}>`;
  if (incident.components.length > 0) html += affects(i18n, incident.components, tag);
  return html;
}

function affects(i18n: Translator, components: { name: string }[], tag: 'p' | 'span'): string {
  const names = components.map((c) => plainText(c.name)).join(', ');
  return `<${tag} class="incident-meta">${htmlMessage(i18n, 'incidents.affects', { components: names })}</${tag}>`;
}

/** Updates newest first: the latest word is what a player came for. */
function timeline(i18n: Translator, incident: SnapshotIncident): string {
  if (incident.updates.length === 0) return '';
  const updates = [...incident.updates].sort((a, b) => b.at - a.at || (a.id < b.id ? 1 : -1));
  const items = updates.map(
    (update) =>
      `<li><p class="update-head"><strong>${escapeHtml(incidentStatusWord(i18n, update.status))}</strong> · ${timeHtml(i18n, update.at)}</p>` +
      `<p class="update-msg">${escapeHtml(plainText(update.message, { multiline: true }))}</p></li>`,
  );
  return `<ol class="timeline" aria-label="${escapeHtml(i18n.t('incidents.updates'))}">${items.join('')}</ol>`;
}

function maintenanceItem(i18n: Translator, window: SnapshotMaintenance): string {
  const pill = (key: 'incidents.inProgress' | 'incidents.scheduled') =>
    `<span class="pill">${escapeHtml(i18n.t(key))}</span>`;
  const when =
    window.status === 'in_progress'
      ? `${pill('incidents.inProgress')} ${htmlMessage(i18n, 'incidents.until', {}, { time: timeHtml(i18n, window.endsAt) })}`
      : `${pill('incidents.scheduled')} ${htmlMessage(i18n, 'incidents.window', {}, { start: timeHtml(i18n, window.startsAt), end: timeHtml(i18n, window.endsAt) })}`;
  let html = `<article class="incident t-maintenance"><h3>${escapeHtml(plainText(window.title))}</h3><p class="incident-meta">${when}</p>`;
  if (window.repeats !== null)
    html += `<p class="incident-meta">${htmlMessage(i18n, 'common.repeats', { schedule: plainText(window.repeats) })}</p>`;
  if (window.components.length > 0) html += affects(i18n, window.components, 'p');
  if (window.description)
    html += `<p class="update-msg">${escapeHtml(plainText(window.description, { multiline: true }))}</p>`;
  return html + '</article>';
}
