// The RSS 2.0 form of a page: one item per incident (active and of the last 14 days), per maintenance window and, on a
// page that announces them, per game change of the last 24 hours.
import type { Snapshot, SnapshotGameChange, SnapshotIncident, SnapshotMaintenance } from '../domain/snapshot.js';
import { gameChangeText, gameChangeWas } from './game-changes.js';
import { escapeHtml } from './html-layout.js';
import { htmlMessage } from './html-message.js';
import { type Translator, translator } from './i18n/index.js';
import { durationText, impactWord, incidentStatusWord } from './i18n/wording.js';
import { plainText } from './page-wording.js';

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
  category: 'incident' | 'maintenance' | 'game';
  at: number;
}

/**
 * The feed covers what the snapshot holds: active incidents, incidents resolved in the last 14 days, and active and
 * upcoming maintenance. Newest first: an incident dates from its latest update, a maintenance window from its start
 * (so upcoming windows lead the feed). The same snapshot always gives the same bytes.
 */
export function renderFeed(snapshot: Snapshot, options: { selfUrl: string; i18n?: Translator }): FeedRendering {
  // The reader's language, dates in the page's time zone; the page's own language (else English) when left out.
  const i18n = options.i18n ?? translator(snapshot.page.language ?? undefined, snapshot.page.timeZone);
  const title = plainText(snapshot.page.title) || snapshot.page.slug;
  const link = snapshot.page.url;
  const items = [
    ...uniqueIncidents(snapshot).map((incident) => incidentItem(i18n, incident)),
    ...snapshot.maintenance.active.map((window) => maintenanceItem(i18n, window, true)),
    ...snapshot.maintenance.upcoming.map((window) => maintenanceItem(i18n, window, false)),
    ...(snapshot.gameChanges ?? []).map((change) => gameChangeItem(i18n, change)),
  ].sort((a, b) => b.at - a.at || (a.guid < b.guid ? -1 : 1));
  const description = i18n.t('feed.description', { title });
  const body =
    '<?xml version="1.0" encoding="UTF-8"?>\n' +
    '<rss version="2.0" xmlns:atom="http://www.w3.org/2005/Atom">\n<channel>\n' +
    `<title>${xml(i18n.t('common.statusOf', { title }))}</title>\n` +
    `<link>${xml(link)}</link>\n` +
    `<description>${xml(description)}</description>\n` +
    // RSS 2.0 takes the language's code, lower case (pt-br).
    `<language>${i18n.language.toLowerCase()}</language>\n` +
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
    .replace(
      /[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g,
      '',
    )
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
  return [...snapshot.activeIncidents, ...snapshot.recentIncidents].filter(
    (incident) => !seen.has(incident.id) && seen.add(incident.id),
  );
}

function incidentItem(i18n: Translator, incident: SnapshotIncident): FeedItem {
  const status = incidentStatusWord(i18n, incident.status);
  const impact = impactWord(i18n, incident.impact);
  const latest = Math.max(incident.startedAt, incident.resolvedAt ?? 0, ...incident.updates.map((u) => u.at));
  const facts = [
    escapeHtml(impact),
    escapeHtml(status),
    htmlMessage(i18n, 'incidents.started', { time: i18n.dateTime(incident.startedAt) }),
  ];
  if (incident.resolvedAt !== null)
    facts.push(
      htmlMessage(i18n, 'incidents.resolvedAfter', {
        time: i18n.dateTime(incident.resolvedAt),
        duration: durationText(i18n, incident.resolvedAt - incident.startedAt),
      }),
    );
  let html = `<p>${facts.join(' · ')}</p>` + affects(i18n, incident.components);
  const updates = [...incident.updates].sort((a, b) => b.at - a.at || (a.id < b.id ? 1 : -1));
  for (const update of updates)
    html += `<p><strong>${escapeHtml(incidentStatusWord(i18n, update.status))}</strong> — ${escapeHtml(i18n.dateTime(update.at))}${paragraph(update.message, '<br>')}</p>`;
  return {
    title: i18n.t('feed.incidentTitle', { title: plainText(incident.title), impact, status }),
    description: html,
    guid: `urn:warden:incident:${incident.id}`,
    category: 'incident',
    at: latest,
  };
}

function maintenanceItem(i18n: Translator, window: SnapshotMaintenance, active: boolean): FeedItem {
  // "22 Nov 2026, 20:05–22:05 UTC" within a day, both ends in full otherwise.
  const span = i18n.dateRange(window.startsAt, window.endsAt);
  let html =
    `<p>${escapeHtml(i18n.t(active ? 'incidents.inProgress' : 'incidents.scheduled'))} · ${escapeHtml(span)}</p>` +
    (window.repeats === null
      ? ''
      : `<p>${htmlMessage(i18n, 'common.repeats', { schedule: plainText(window.repeats) })}</p>`) +
    affects(i18n, window.components);
  if (window.description) html += `<p>${paragraph(window.description, '')}</p>`;
  return {
    title: i18n.t(active ? 'feed.maintenanceInProgress' : 'feed.maintenanceScheduled', {
      title: plainText(window.title),
      span,
    }),
    description: html,
    guid: `urn:warden:maintenance:${window.id}`,
    category: 'maintenance',
    at: window.startsAt,
  };
}

/** A game change: its words, and when; the guid is the change's own (its game.changed event's id). */
function gameChangeItem(i18n: Translator, change: SnapshotGameChange): FeedItem {
  const was = gameChangeWas(i18n, change);
  return {
    title: gameChangeText(i18n, change),
    description: `<p>${escapeHtml(i18n.dateTime(change.at))}${was === null ? '' : ` · ${escapeHtml(was)}`}</p>`,
    guid: `urn:warden:game-change:${change.id}`,
    category: 'game',
    at: change.at,
  };
}

function affects(i18n: Translator, components: { name: string }[]): string {
  if (components.length === 0) return '';
  return `<p>${htmlMessage(i18n, 'common.affects', { components: components.map((c) => plainText(c.name)).join(', ') })}</p>`;
}

/** Multi-line user text as escaped HTML lines, after `lead` when not empty. */
function paragraph(text: string, lead: string): string {
  const lines = plainText(text, { multiline: true })
    .split('\n')
    .filter((line) => line !== '');
  return lines.length === 0 ? '' : lead + lines.map(escapeHtml).join('<br>');
}
