// The RSS 2.0 form of a page: one item per incident (active and of the last 14 days) and per maintenance window.
import type { Snapshot, SnapshotIncident, SnapshotMaintenance } from '../domain/snapshot.js';
import { escapeHtml } from './html-layout.js';
import { formatDuration, humanTime, IMPACT_WORD, INCIDENT_STATUS_WORD, plainText } from './page-wording.js';

export interface FeedRendering {
  contentType: 'application/rss+xml; charset=utf-8';
  body: string;
}

/** Feed readers may cache the channel this long (minutes, the RSS <ttl>); the HTTP cache is 30 s anyway. */
const FEED_TTL_MIN = 5;

interface FeedItem {
  title: string;
  /** HTML, escaped once more as XML text, as RSS readers expect. */
  description: string;
  guid: string;
  category: 'incident' | 'maintenance';
  at: number;
}

/**
 * The feed covers what the snapshot holds: active incidents, incidents resolved in the last 14 days, and active and
 * upcoming maintenance. Newest first: an incident dates from its latest update, a maintenance window from its start
 * (so upcoming windows lead the feed). The same snapshot always gives the same bytes.
 */
export function renderFeed(snapshot: Snapshot, options: { selfUrl: string }): FeedRendering {
  const title = plainText(snapshot.page.title) || snapshot.page.slug;
  const link = snapshot.page.url;
  const items = [
    ...uniqueIncidents(snapshot).map((incident) => incidentItem(incident)),
    ...snapshot.maintenance.active.map((window) => maintenanceItem(window, true)),
    ...snapshot.maintenance.upcoming.map((window) => maintenanceItem(window, false)),
  ].sort((a, b) => b.at - a.at || (a.guid < b.guid ? -1 : 1));
  const description = `Incidents (active and of the last 14 days) and scheduled maintenance of ${title}.`;
  const body =
    '<?xml version="1.0" encoding="UTF-8"?>\n' +
    '<rss version="2.0" xmlns:atom="http://www.w3.org/2005/Atom">\n<channel>\n' +
    `<title>${xml(`${title} status`)}</title>\n` +
    `<link>${xml(link)}</link>\n` +
    `<description>${xml(description)}</description>\n` +
    '<language>en</language>\n' +
    `<lastBuildDate>${rfc822(snapshot.generatedAt)}</lastBuildDate>\n` +
    '<generator>Warden</generator>\n' +
    `<ttl>${FEED_TTL_MIN}</ttl>\n` +
    `<atom:link href="${xml(options.selfUrl)}" rel="self" type="application/rss+xml"/>\n` +
    items.map((item) => itemXml(item, link)).join('') +
    '</channel>\n</rss>\n';
  return { contentType: 'application/rss+xml; charset=utf-8', body };
}

/** Text safe in XML content and attributes, without the characters XML 1.0 forbids (controls, lone surrogates). */
export function xml(text: string): string {
  return text
    .replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g, '')
    .replace(/[&<>"']/g, (char) => XML_ENTITIES[char] ?? char);
}

const XML_ENTITIES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' };

function itemXml(item: FeedItem, link: string): string {
  return (
    '<item>\n' +
    `<title>${xml(item.title)}</title>\n` +
    `<link>${xml(link)}</link>\n` +
    `<description>${xml(item.description)}</description>\n` +
    `<category>${item.category}</category>\n` +
    `<guid isPermaLink="false">${xml(item.guid)}</guid>\n` +
    `<pubDate>${rfc822(item.at)}</pubDate>\n` +
    '</item>\n'
  );
}

/** RFC 822 dates as RSS 2.0 wants them: "Fri, 20 Nov 2026 14:05:00 GMT". */
function rfc822(ms: number): string {
  return new Date(ms).toUTCString();
}

/** An incident is listed once even if it were both active and recent. */
function uniqueIncidents(snapshot: Snapshot): SnapshotIncident[] {
  const seen = new Set<string>();
  return [...snapshot.activeIncidents, ...snapshot.recentIncidents].filter((incident) => !seen.has(incident.id) && seen.add(incident.id));
}

function incidentItem(incident: SnapshotIncident): FeedItem {
  const status = INCIDENT_STATUS_WORD[incident.status].toLowerCase();
  const impact = IMPACT_WORD[incident.impact].toLowerCase();
  const latest = Math.max(incident.startedAt, incident.resolvedAt ?? 0, ...incident.updates.map((u) => u.at));
  const facts = [escapeHtml(IMPACT_WORD[incident.impact]), INCIDENT_STATUS_WORD[incident.status], `started ${humanTime(incident.startedAt)}`];
  if (incident.resolvedAt !== null)
    facts.push(`resolved ${humanTime(incident.resolvedAt)} after ${formatDuration(incident.resolvedAt - incident.startedAt)}`);
  let html = `<p>${facts.join(' · ')}</p>` + affects(incident.components);
  const updates = [...incident.updates].sort((a, b) => b.at - a.at || (a.id < b.id ? 1 : -1));
  for (const update of updates)
    html += `<p><strong>${INCIDENT_STATUS_WORD[update.status]}</strong> — ${humanTime(update.at)}${paragraph(update.message, '<br>')}</p>`;
  return {
    title: `${plainText(incident.title)} (${impact}, ${status})`,
    description: html,
    guid: `urn:warden:incident:${incident.id}`,
    category: 'incident',
    at: latest,
  };
}

function maintenanceItem(window: SnapshotMaintenance, active: boolean): FeedItem {
  const span = windowText(window.startsAt, window.endsAt);
  let html = `<p>${active ? 'In progress' : 'Scheduled'} · ${span}</p>` + affects(window.components);
  if (window.description) html += `<p>${paragraph(window.description, '')}</p>`;
  return {
    title: `${active ? 'Maintenance in progress' : 'Scheduled maintenance'}: ${plainText(window.title)} (${span})`,
    description: html,
    guid: `urn:warden:maintenance:${window.id}`,
    category: 'maintenance',
    at: window.startsAt,
  };
}

/** "22 Nov 2026, 20:05 – 22:05 UTC" within a day, both ends in full otherwise. */
function windowText(startsAt: number, endsAt: number): string {
  const start = humanTime(startsAt);
  const end = humanTime(endsAt);
  const sameDay = start.slice(0, start.indexOf(',')) === end.slice(0, end.indexOf(','));
  return sameDay ? `${start.replace(/ UTC$/, '')} – ${end.slice(end.indexOf(',') + 2)}` : `${start} – ${end}`;
}

function affects(components: { name: string }[]): string {
  if (components.length === 0) return '';
  return `<p>Affects: ${components.map((c) => escapeHtml(plainText(c.name))).join(', ')}</p>`;
}

/** Multi-line user text as escaped HTML lines, after `lead` when not empty. */
function paragraph(text: string, lead: string): string {
  const lines = plainText(text, { multiline: true }).split('\n').filter((line) => line !== '');
  return lines.length === 0 ? '' : lead + lines.map(escapeHtml).join('<br>');
}
