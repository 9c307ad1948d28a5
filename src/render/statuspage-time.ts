// Times as Statuspage writes them: ISO 8601 with milliseconds and the page zone's offset at that instant.
import type { Snapshot } from '../domain/snapshot.js';

/** The page's IANA time zone; UTC for a name this runtime's Intl does not know (validation keeps those out). */
export function timeZoneOf(snapshot: Snapshot): string {
  const zone = snapshot.page.timeZone;
  return zone !== '' && offsetFormat(zone) !== null ? zone : 'UTC';
}

export function isoDay(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10);
}

/**
 * ISO 8601 with milliseconds and the zone's offset at that instant, as Statuspage writes its times
 * ("2026-11-20T15:05:00.000+01:00"; "…Z" in UTC).
 */
export function isoInZone(ms: number, zone: string): string {
  const format = zone === 'UTC' || zone === 'Etc/UTC' ? null : offsetFormat(zone);
  if (!format) return new Date(ms).toISOString();
  const name = format.formatToParts(new Date(ms)).find((part) => part.type === 'timeZoneName')?.value ?? 'GMT';
  // "GMT" alone is a zero offset; else "GMT+05:30" or "GMT-08:00".
  const match = /^GMT([+-])(\d{2}):(\d{2})$/.exec(name);
  const offset = match ? (match[1] === '-' ? -1 : 1) * (Number(match[2]) * 60 + Number(match[3])) : 0;
  const local = new Date(ms + offset * 60_000).toISOString().slice(0, 23);
  return `${local}${match ? `${match[1]}${match[2]}:${match[3]}` : '+00:00'}`;
}

/** One formatter per zone (they are costly to make); null for a name Intl does not know. */
const formats = new Map<string, Intl.DateTimeFormat | null>();

function offsetFormat(zone: string): Intl.DateTimeFormat | null {
  let format = formats.get(zone);
  if (format === undefined) {
    try {
      format = new Intl.DateTimeFormat('en-US', { timeZone: zone, timeZoneName: 'longOffset' });
    } catch {
      format = null;
    }
    formats.set(zone, format);
  }
  return format;
}
