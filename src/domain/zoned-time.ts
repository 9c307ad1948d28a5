// Wall-clock time in an IANA time zone and the real instants it stands for, with Intl only. "Floating" times are
// milliseconds whose UTC fields read as the local wall clock (02:00 on a Monday in the zone is Monday 02:00Z).

const formatters = new Map<string, Intl.DateTimeFormat>();

function formatter(timeZone: string): Intl.DateTimeFormat {
  let f = formatters.get(timeZone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    });
    formatters.set(timeZone, f);
  }
  return f;
}

/** Whether Intl knows the zone (an IANA name such as Europe/Berlin, or UTC). */
export function isTimeZone(timeZone: string): boolean {
  try {
    formatter(timeZone);
    return true;
  } catch {
    return false;
  }
}

/** The wall clock in `timeZone` at `instant`, as a floating time. */
export function toFloating(instant: number, timeZone: string): number {
  const parts: Record<string, number> = {};
  for (const p of formatter(timeZone).formatToParts(instant)) if (p.type !== 'literal') parts[p.type] = Number(p.value);
  const wall = Date.UTC(
    parts.year ?? 1970,
    (parts.month ?? 1) - 1,
    parts.day ?? 1,
    parts.hour ?? 0,
    parts.minute ?? 0,
    parts.second ?? 0,
  );
  return wall + (((instant % 1000) + 1000) % 1000);
}

const HOUR_MS = 3_600_000;

/**
 * The instant a wall-clock time in `timeZone` stands for. A time skipped by a spring-forward change moves forward by
 * the gap (02:30 becomes 03:30); a time that happens twice at a fall-back change is its first instant.
 */
export function fromFloating(wall: number, timeZone: string): number {
  const offset = (instant: number) => toFloating(instant, timeZone) - instant;
  // The offsets on either side of any change near this time: zones change by at most a day's worth of hours.
  const before = offset(wall - 24 * HOUR_MS);
  const after = offset(wall + 24 * HOUR_MS);
  const candidates = [wall - before, wall - after].filter((c) => toFloating(c, timeZone) === wall);
  if (candidates.length > 0) return Math.min(...candidates);
  return wall - before;
}
