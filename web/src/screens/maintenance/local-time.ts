// Times for <input type="datetime-local">, which reads and writes the browser's wall clock: to and from epoch ms, and
// the time zone to name beside them.

const pad = (n: number) => String(n).padStart(2, '0');

/** `2026-05-01T22:00` for an instant, in the browser's time zone. */
export function toLocalInput(ms: number): string {
  const d = new Date(ms);
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}`;
}

/** The instant a datetime-local value means in the browser's time zone; null when it is empty or not a time. */
export function fromLocalInput(value: string): number | null {
  if (!/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2})?$/.test(value)) return null;
  const ms = new Date(value).getTime();
  return Number.isNaN(ms) ? null : ms;
}

/** The browser's time zone (`Europe/Berlin`), said beside every time the screen reads or shows. */
export function browserTimeZone(): string {
  return Intl.DateTimeFormat().resolvedOptions().timeZone || 'local time';
}

// dateStyle/timeStyle cannot take a zone name: the fields are spelled out.
const RANGE = new Intl.DateTimeFormat(undefined, {
  year: 'numeric',
  month: 'short',
  day: 'numeric',
  hour: '2-digit',
  minute: '2-digit',
  timeZoneName: 'short',
});

/** `1 May 2026, 22:00 CEST – 2 May 2026, 00:00 CEST`. */
export function formatRange(startsAt: number, endsAt: number): string {
  return RANGE.formatRange(startsAt, endsAt);
}
