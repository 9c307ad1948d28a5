// The words every channel shares: a duration people read, the event's title, its facts (monitor, page, downtime,
// players…) and a plain-text rendering. Pure functions; each channel only dresses them in its own format.
import type { NotificationEvent, NotificationSeverity } from '../channels/channel.js';

/** "0 s", "42 s", "4 min 12 s", "2 h 5 min", "3 d 4 h": the two largest units, the second left out when zero. */
export function humanDuration(ms: number): string {
  let rest = Math.max(0, Math.round(ms / 1000));
  const counts = DURATION_UNITS.map(([name, size]) => {
    const count = Math.floor(rest / size);
    rest -= count * size;
    return { name, count };
  });
  const first = counts.findIndex((unit) => unit.count > 0);
  if (first === -1) return '0 s';
  return counts
    .slice(first, first + 2)
    .filter((unit, index) => index === 0 || unit.count > 0)
    .map((unit) => `${unit.count} ${unit.name}`)
    .join(' ');
}

const DURATION_UNITS: [string, number][] = [
  ['d', 86_400],
  ['h', 3_600],
  ['min', 60],
  ['s', 1],
];

/** One fact of an event: a label, its value, and where the value links to. */
export interface EventFact {
  name: string;
  value: string;
  url?: string;
}

/** The facts every channel shows, in order; none when a message template wrote the body (its author chose the words). */
export function eventFacts(event: NotificationEvent): EventFact[] {
  const facts: EventFact[] = [];
  if (event.message?.body !== undefined) return facts;
  const { monitor, relay, incident, maintenance, tls } = event;
  if (monitor) facts.push({ name: 'Monitor', value: monitor.name });
  if (relay) facts.push({ name: 'Relay', value: relay.name });
  if (incident) facts.push({ name: 'Incident', value: `${incident.title} (${incident.status}, ${incident.impact})` });
  if (maintenance)
    facts.push({
      name: 'Maintenance',
      value: `${maintenance.title}: ${utc(maintenance.startsAt)} to ${utc(maintenance.endsAt)}`,
    });
  if (tls)
    facts.push({
      name: 'Certificate',
      value: `${tls.host}: ${certificateWords(event.kind, tls.daysLeft)} (${utc(tls.expiresAt)})`,
    });
  const page = event.pages[0];
  if (page) facts.push({ name: 'Page', value: page.title, url: page.url });
  if (event.kind === 'monitor.recovered' && monitor?.downtimeMs != null)
    facts.push({ name: 'Downtime', value: humanDuration(monitor.downtimeMs) });
  if (monitor?.players) facts.push({ name: 'Players', value: players(monitor.players) });
  if (event.alert?.acknowledgeUrl)
    facts.push({ name: 'Acknowledge', value: 'Acknowledge this alert', url: event.alert.acknowledgeUrl });
  return facts;
}

export function players(count: { online: number; max: number | null }): string {
  return count.max === null ? `${count.online} online` : `${count.online} / ${count.max} online`;
}

/** The small print under a message: the organization and when it happened. */
export function footnote(event: NotificationEvent): string {
  return `${event.organization.name} · ${utc(event.at)}`;
}

/** The page the link channels open, if any. */
export function pageLink(event: NotificationEvent): { title: string; url: string } | null {
  const page = event.pages[0];
  return page ? { title: page.title, url: page.url } : null;
}

/** The whole message as plain lines: title, reason, facts, link, footnote. */
export function plainText(event: NotificationEvent, options: { title?: boolean } = {}): string {
  const lines: string[] = [];
  if (options.title !== false) lines.push(event.title);
  if (event.reason) lines.push(clip(event.reason, REASON_CHARS));
  const facts = eventFacts(event).map((fact) => `${fact.name}: ${fact.value}${fact.url ? ` (${fact.url})` : ''}`);
  if (facts.length > 0) lines.push('', ...facts);
  lines.push('', footnote(event));
  return lines.join('\n').replace(/^\n+/, '');
}

/** How a severity looks: a colour (0xRRGGBB) and an emoji, the same on every channel. */
export const SEVERITY_LOOK: Record<NotificationSeverity, { colour: number; emoji: string; word: string }> = {
  critical: { colour: 0xe74c3c, emoji: '🔴', word: 'red' },
  warning: { colour: 0xf39c12, emoji: '🟠', word: 'orange' },
  info: { colour: 0x3498db, emoji: '🔵', word: 'blue' },
  ok: { colour: 0x2ecc71, emoji: '✅', word: 'green' },
};

/** Longest reason any channel shows. */
export const REASON_CHARS = 1500;

/** At most `max` characters, the last one an ellipsis when cut. */
export function clip(text: string, max: number): string {
  const chars = Array.from(text);
  return chars.length <= max ? text : `${chars.slice(0, max - 1).join('')}…`;
}

/** An epoch-ms time as "2025-03-01 14:05 UTC". */
export function utc(at: number): string {
  return `${new Date(at).toISOString().slice(0, 16).replace('T', ' ')} UTC`;
}

/** "expires in 9 days", "expires today", or "expired" (told so, or past its date). */
function certificateWords(kind: NotificationEvent['kind'], daysLeft: number): string {
  if (kind === 'tls.expired' || daysLeft < 0) return 'expired';
  return daysLeft === 0 ? 'expires today' : `expires in ${plural(daysLeft, 'day')}`;
}

function plural(count: number, word: string): string {
  return `${count} ${word}${count === 1 ? '' : 's'}`;
}

/** Markdown characters shown as themselves (a backslash before each), so a name cannot bold, link or quote. */
export function escapeMarkdown(text: string): string {
  return text.replace(/([\\*_~`|>[\]()#-])/g, '\\$1');
}
