// The incident and maintenance sections of the HTML status page: what is wrong now, what is planned, what happened lately.
import type { Snapshot, SnapshotIncident, SnapshotMaintenance } from '../domain/snapshot.js';
import { impactToPageState } from '../domain/states.js';
import { escapeHtml, timeHtml } from './html-layout.js';
import { formatDuration, IMPACT_WORD, INCIDENT_STATUS_WORD, plainText } from './page-wording.js';

/** Active incidents, most prominent first on the page; nothing when there are none. */
export function activeIncidentsHtml(incidents: SnapshotIncident[]): string {
  if (incidents.length === 0) return '';
  const items = incidents.map(
    (incident) =>
      `<article class="incident ${tone(incident)}"><h3>${escapeHtml(plainText(incident.title))}</h3>` +
      `${incidentMeta(incident, 'p')}${timeline(incident)}</article>`,
  );
  return block('active-incidents', 'Active incidents', `<div class="card">${items.join('')}</div>`);
}

/** Maintenance in progress and upcoming; nothing when none is planned. */
export function maintenanceHtml(maintenance: Snapshot['maintenance']): string {
  const windows = [...maintenance.active, ...maintenance.upcoming];
  if (windows.length === 0) return '';
  return block('maintenance', 'Maintenance', `<div class="card">${windows.map(maintenanceItem).join('')}</div>`);
}

/** Resolved incidents of the last 14 days, each folded to one line until opened. */
export function recentIncidentsHtml(incidents: SnapshotIncident[]): string {
  const body =
    incidents.length === 0
      ? '<p class="empty">No incidents in the last 14 days.</p>'
      : incidents
          .map((incident) => {
            // A summary may hold a heading and phrasing content only, hence spans for the facts.
            const summary = `<summary><h3>${escapeHtml(plainText(incident.title))}</h3>${incidentMeta(incident, 'span')}</summary>`;
            return `<details class="incident ${tone(incident)}">${summary}${timeline(incident)}</details>`;
          })
          .join('');
  return block('recent-incidents', 'Recent incidents', `<div class="card">${body}</div>`);
}

function block(id: string, title: string, inner: string): string {
  return `<section class="block" aria-labelledby="${id}-title"><h2 id="${id}-title">${title}</h2>${inner}</section>`;
}

function tone(incident: SnapshotIncident): string {
  const state = impactToPageState(incident.impact);
  return `t-${state === 'operational' ? 'maintenance' : state}`;
}

function incidentMeta(incident: SnapshotIncident, tag: 'p' | 'span'): string {
  const parts = [
    // The status pill has its own tone: a resolved major incident reads green, not red.
    `<span class="pill${incident.status === 'resolved' ? ' t-operational' : ''}">${INCIDENT_STATUS_WORD[incident.status]}</span>`,
    escapeHtml(IMPACT_WORD[incident.impact]),
    `started ${timeHtml(incident.startedAt)}`,
  ];
  if (incident.resolvedAt !== null)
    parts.push(`resolved ${timeHtml(incident.resolvedAt)} after ${formatDuration(incident.resolvedAt - incident.startedAt)}`);
  let html = `<${tag} class="incident-meta">${parts.join(' · ')}</${tag}>`;
  if (incident.components.length > 0) html += affects(incident.components, tag);
  return html;
}

function affects(components: { name: string }[], tag: 'p' | 'span'): string {
  return `<${tag} class="incident-meta">Affects ${components.map((c) => escapeHtml(plainText(c.name))).join(', ')}</${tag}>`;
}

/** Updates newest first: the latest word is what a player came for. */
function timeline(incident: SnapshotIncident): string {
  if (incident.updates.length === 0) return '';
  const updates = [...incident.updates].sort((a, b) => b.at - a.at || (a.id < b.id ? 1 : -1));
  const items = updates.map(
    (update) =>
      `<li><p class="update-head"><strong>${INCIDENT_STATUS_WORD[update.status]}</strong> · ${timeHtml(update.at)}</p>` +
      `<p class="update-msg">${escapeHtml(plainText(update.message, { multiline: true }))}</p></li>`,
  );
  return `<ol class="timeline" aria-label="Updates, newest first">${items.join('')}</ol>`;
}

function maintenanceItem(window: SnapshotMaintenance): string {
  const when =
    window.status === 'in_progress'
      ? `<span class="pill">In progress</span> until ${timeHtml(window.endsAt)}`
      : `<span class="pill">Scheduled</span> ${timeHtml(window.startsAt)} to ${timeHtml(window.endsAt)}`;
  let html = `<article class="incident t-maintenance"><h3>${escapeHtml(plainText(window.title))}</h3><p class="incident-meta">${when}</p>`;
  if (window.components.length > 0) html += affects(window.components, 'p');
  if (window.description)
    html += `<p class="update-msg">${escapeHtml(plainText(window.description, { multiline: true }))}</p>`;
  return html + '</article>';
}

