// The Markdown form of a status page: plain text that people and language models read alike.
import type { Snapshot, SnapshotComponent, SnapshotIncident, SnapshotMaintenance } from '../domain/snapshot.js';
import {
  formatCount,
  formatDuration,
  formatPlayers,
  formatUptime,
  groupComponents,
  IMPACT_WORD,
  INCIDENT_STATUS_WORD,
  isoTime,
  plainText,
  STATE_WORD,
} from './page-wording.js';

export interface MarkdownRendering {
  contentType: 'text/markdown; charset=utf-8';
  body: string;
}

/** The page as Markdown; the same snapshot always gives the same bytes. */
export function renderMarkdown(snapshot: Snapshot): MarkdownRendering {
  const blocks = [
    header(snapshot),
    activeIncidents(snapshot.activeIncidents),
    maintenance(snapshot.maintenance),
    components(snapshot.components),
    recentIncidents(snapshot.recentIncidents),
    `---\n\nGenerated at ${isoTime(snapshot.generatedAt)}. Times are UTC.`,
  ];
  return { contentType: 'text/markdown; charset=utf-8', body: blocks.filter((block) => block !== '').join('\n\n') + '\n' };
}

/**
 * User text escaped for inline Markdown (a heading, a list item, a table cell): whitespace collapsed, and every
 * character that could open emphasis, code, a link, raw HTML, an entity or a table cell backslashed. Brackets are
 * enough to stop links and images, so "(" and "!" stay readable.
 */
export function escapeMarkdown(text: string): string {
  return plainText(text)
    .replace(/[\\`*_[\]<>#|~]/g, '\\$&')
    .replace(/&(?=#?\w+;)/g, '\\&');
}

/** User text that begins a line: it must also not start a list, a heading, a quote or a rule. */
function escapeMarkdownLine(text: string): string {
  return escapeMarkdown(text)
    .replace(/^([-+=])/, '\\$1')
    .replace(/^(\d+)([.)])/, '$1\\$2');
}

/** Multi-line user text (an update message) as indented continuation lines of a list item. */
function escapeMarkdownBlock(text: string, indent: string): string {
  return plainText(text, { multiline: true })
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => indent + escapeMarkdownLine(line))
    .join('\n');
}

function header(snapshot: Snapshot): string {
  const lines = [`# ${escapeMarkdown(snapshot.page.title)}`];
  if (snapshot.page.description) lines.push('', escapeMarkdownLine(snapshot.page.description));
  lines.push('', `**Overall status: ${STATE_WORD[snapshot.overall.state]}** — ${escapeMarkdown(snapshot.overall.label)}`);
  const { players, maxPlayers } = snapshot.totals;
  if (players !== null)
    lines.push('', `Players online: ${formatCount(players)}${maxPlayers === null ? '' : ` of ${formatCount(maxPlayers)}`}`);
  lines.push('', `Page: <${snapshot.page.url.replace(/[<>\s]/g, encodeURIComponent)}>`);
  return lines.join('\n');
}

function components(list: SnapshotComponent[]): string {
  const lines = ['## Components'];
  if (list.length === 0) return [...lines, '', '_No components on this page yet._'].join('\n');
  const groups = groupComponents(list);
  const named = groups.some((g) => g.group !== null);
  for (const { group, components: members } of groups) {
    if (named) lines.push('', `### ${group === null ? 'Other' : escapeMarkdown(group)}`);
    lines.push('', '| Component | Status | Uptime 30 d | Uptime 90 d | Live |', '| --- | --- | --- | --- | --- |');
    for (const component of members) lines.push(componentRow(component));
  }
  return lines.join('\n');
}

function componentRow(component: SnapshotComponent): string {
  const name = escapeMarkdown(component.name) + (component.description ? ` — ${escapeMarkdown(component.description)}` : '');
  const since =
    component.since !== null && component.state !== 'operational' ? ` since ${isoTime(component.since)}` : '';
  const cells = [
    name,
    STATE_WORD[component.state] + since,
    formatUptime(component.uptime['30d']),
    formatUptime(component.uptime['90d']),
    liveFacts(component) || '—',
  ];
  return `| ${cells.join(' | ')} |`;
}

function liveFacts(component: SnapshotComponent): string {
  const live = component.live;
  if (!live) return '';
  const facts: string[] = [];
  const players = formatPlayers(live.players, live.maxPlayers);
  if (players) facts.push(players);
  if (live.latencyMs !== null) facts.push(`latency ${Math.round(live.latencyMs)} ms`);
  if (live.version) facts.push(`version ${escapeMarkdown(live.version)}`);
  if (live.motd) facts.push(`MOTD: ${escapeMarkdown(live.motd)}`);
  if (live.message) facts.push(`note: ${escapeMarkdown(live.message)}`);
  if (live.checkedAt !== null) facts.push(`checked ${isoTime(live.checkedAt)}`);
  return facts.join('; ');
}

function activeIncidents(incidents: SnapshotIncident[]): string {
  if (incidents.length === 0) return '';
  return ['## Active incidents', ...incidents.map((incident) => incidentBlock(incident))].join('\n\n');
}

function recentIncidents(incidents: SnapshotIncident[]): string {
  const head = '## Recent incidents (last 14 days)';
  if (incidents.length === 0) return `${head}\n\n_No incidents in the last 14 days._`;
  return [head, ...incidents.map((incident) => incidentBlock(incident))].join('\n\n');
}

/** One incident as a `###` block: facts, affected components, updates newest first; the MCP incident list uses it too. */
export function incidentBlock(incident: SnapshotIncident): string {
  const facts = [
    `Status: ${INCIDENT_STATUS_WORD[incident.status]}`,
    IMPACT_WORD[incident.impact],
    `started ${isoTime(incident.startedAt)}`,
  ];
  if (incident.resolvedAt !== null)
    facts.push(`resolved ${isoTime(incident.resolvedAt)} (lasted ${formatDuration(incident.resolvedAt - incident.startedAt)})`);
  const lines = [`### ${escapeMarkdown(incident.title)}`, '', facts.join(' · ')];
  if (incident.components.length > 0)
    lines.push('', `Affects: ${incident.components.map((c) => escapeMarkdown(c.name)).join(', ')}`);
  // Newest first: the latest word is what a reader came for.
  const updates = [...incident.updates].sort((a, b) => b.at - a.at || (a.id < b.id ? 1 : -1));
  if (updates.length > 0) {
    lines.push('');
    for (const update of updates) {
      const message = escapeMarkdownBlock(update.message, '  ');
      lines.push(`- ${isoTime(update.at)} — **${INCIDENT_STATUS_WORD[update.status]}**` + (message ? `\n${message}` : ''));
    }
  }
  return lines.join('\n');
}

function maintenance(windows: Snapshot['maintenance']): string {
  if (windows.active.length === 0 && windows.upcoming.length === 0) return '';
  const lines = ['## Maintenance'];
  if (windows.active.length > 0) lines.push('', '### In progress', '', ...windows.active.map(maintenanceItem));
  if (windows.upcoming.length > 0) lines.push('', '### Upcoming', '', ...windows.upcoming.map(maintenanceItem));
  return lines.join('\n');
}

function maintenanceItem(window: SnapshotMaintenance): string {
  const parts = [`- **${escapeMarkdown(window.title)}** — ${isoTime(window.startsAt)} to ${isoTime(window.endsAt)}`];
  if (window.components.length > 0) parts.push(`Affects: ${window.components.map((c) => escapeMarkdown(c.name)).join(', ')}.`);
  const description = window.description ? escapeMarkdownBlock(window.description, '  ') : '';
  return parts.join('. ') + (description ? `\n${description}` : '');
}
