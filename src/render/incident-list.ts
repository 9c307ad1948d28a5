// The Markdown of a page's incident list (MCP list_incidents): the same incident blocks as the page's own Markdown.
import type { SnapshotIncident, SnapshotPage } from '../domain/snapshot.js';
import { escapeMarkdown, incidentBlock } from './markdown.js';

export interface IncidentListQuery {
  limit: number;
  includeResolved: boolean;
  days: number;
}

export function renderIncidentList(
  page: Pick<SnapshotPage, 'title' | 'url'>,
  incidents: SnapshotIncident[],
  query: IncidentListQuery,
): string {
  const scope = query.includeResolved ? `active, and resolved in the last ${query.days} days` : 'active';
  const lines = [
    `# Incidents: ${escapeMarkdown(page.title)}`,
    '',
    `Showing ${scope}, newest first (at most ${query.limit}).`,
  ];
  lines.push('', `Page: <${page.url.replace(/[<>\s]/g, encodeURIComponent)}>`);
  if (incidents.length === 0)
    lines.push('', query.includeResolved ? '_No incidents in this period._' : '_No active incidents._');
  return [lines.join('\n'), ...incidents.map((incident) => incidentBlock(incident))].join('\n\n') + '\n';
}
