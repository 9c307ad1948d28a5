// The words, numbers and times every human-readable form of a page shares, so Markdown and HTML never disagree.
import type { IncidentImpact, IncidentStatus, PageState } from '../domain/snapshot.js';

/** A component's state in words: the page never relies on colour alone. */
export const STATE_WORD: Record<PageState, string> = {
  operational: 'Operational',
  degraded: 'Degraded',
  down: 'Down',
  maintenance: 'Under maintenance',
  unknown: 'No data',
};

/** What a day in the uptime strip was, for its label; operational days need no word. */
export const DAY_WORD: Record<PageState, string> = {
  operational: '',
  degraded: 'degraded',
  down: 'outage',
  maintenance: 'maintenance',
  unknown: 'no data',
};

export const INCIDENT_STATUS_WORD: Record<IncidentStatus, string> = {
  investigating: 'Investigating',
  identified: 'Identified',
  monitoring: 'Monitoring',
  resolved: 'Resolved',
};

export const IMPACT_WORD: Record<IncidentImpact, string> = {
  none: 'No impact',
  minor: 'Minor impact',
  major: 'Major impact',
  critical: 'Critical impact',
};

/**
 * A share 0..1 as a percentage with two decimals, three when two would round a short outage up to a
 * misleading "100.00%" (truncated, so 99.9996% reads 99.999%, never 100%). Null reads "no data".
 */
export function formatUptime(share: number | null): string {
  if (share === null || !Number.isFinite(share)) return 'no data';
  const percent = Math.min(Math.max(share, 0), 1) * 100;
  const two = percent.toFixed(2);
  if (share < 1 && two === '100.00') {
    // The epsilon undoes binary noise (99.996 stored as 99.99599…); the cap keeps 1 − 1e-12 below 100.
    const thousandths = Math.min(Math.floor(percent * 1000 + 1e-6), 99_999);
    return (thousandths / 1000).toFixed(3) + '%';
  }
  return two + '%';
}

/** An instant as ISO 8601 UTC to the second, the form machines and language models parse without doubt. */
export function isoTime(ms: number): string {
  return new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z');
}

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/** "20 Nov 2026, 14:05 UTC": readable and still the same bytes on every server, whatever its locale or zone. */
export function humanTime(ms: number): string {
  const at = new Date(ms);
  const hh = String(at.getUTCHours()).padStart(2, '0');
  const mm = String(at.getUTCMinutes()).padStart(2, '0');
  return `${at.getUTCDate()} ${MONTHS[at.getUTCMonth()]} ${at.getUTCFullYear()}, ${hh}:${mm} UTC`;
}

/** "2 h 15 min", "3 d 4 h", "45 s": how long an incident lasted. */
export function formatDuration(ms: number): string {
  const seconds = Math.max(0, Math.round(ms / 1000));
  if (seconds < 60) return `${seconds} s`;
  const minutes = Math.floor(seconds / 60);
  if (minutes < 60) return `${minutes} min`;
  const hours = Math.floor(minutes / 60);
  if (hours < 24) return minutes % 60 === 0 ? `${hours} h` : `${hours} h ${minutes % 60} min`;
  const days = Math.floor(hours / 24);
  return hours % 24 === 0 ? `${days} d` : `${days} d ${hours % 24} h`;
}

/** Thousands separated with commas, fixed so the bytes never depend on the server's locale. */
export function formatCount(value: number): string {
  return Math.round(value)
    .toString()
    .replace(/\B(?=(\d{3})+(?!\d))/g, ',');
}

/** "87 / 200 players", "87 players", or null when the monitor reports no players. */
export function formatPlayers(players: number | null, maxPlayers: number | null): string | null {
  if (players === null) return null;
  const noun = players === 1 && maxPlayers === null ? 'player' : 'players';
  return maxPlayers === null ? `${formatCount(players)} ${noun}` : `${formatCount(players)} / ${formatCount(maxPlayers)} ${noun}`;
}

/**
 * User text cleaned for display: control characters (which some game servers put in MOTDs) removed and, for
 * one-line places such as names and table cells, every run of whitespace made one space.
 */
export function plainText(text: string, options: { multiline?: boolean } = {}): string {
  // Minecraft formatting codes (§a, §l…) are colour instructions, not words.
  const cleaned = text.replace(/§[0-9a-fk-orx]/gi, '').replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/g, '');
  if (!options.multiline) return cleaned.replace(/\s+/g, ' ').trim();
  return cleaned
    .replace(/\r\n?/g, '\n')
    .split('\n')
    .map((line) => line.replace(/\s+/g, ' ').trim())
    .join('\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}

/** Components in page order, bunched by group in the order groups first appear; ungrouped ones form a group named null. */
export function groupComponents<T extends { group: string | null }>(components: readonly T[]): { group: string | null; components: T[] }[] {
  const groups = new Map<string | null, T[]>();
  for (const component of components) {
    const key = component.group === null || component.group.trim() === '' ? null : component.group;
    const list = groups.get(key);
    if (list) list.push(component);
    else groups.set(key, [component]);
  }
  return [...groups].map(([group, list]) => ({ group, components: list }));
}
