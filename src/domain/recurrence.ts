// Recurring maintenance: slots of an RFC 5545 RRULE or a cron expression in an IANA time zone, each occurrence lasting
// durationMin. Rules are expanded on read in floating wall-clock time, then each local start is made a real instant
// (zoned-time.ts), so daylight-saving changes move no occurrence off its wall-clock time.
import { CronExpressionParser } from 'cron-parser';
import rrulePackage from 'rrule';
import { z } from 'zod';
import { fromFloating, isTimeZone, toFloating } from './zoned-time.js';

const { RRule } = rrulePackage;

export interface RecurrenceSlot {
  rrule?: string | undefined;
  cron?: string | undefined;
  timezone: string;
  durationMin: number;
}

/** A window as far as time goes: its bounds, and for a recurring one the slots whose occurrences fall within them. */
export interface WindowTimes {
  startsAt: number;
  endsAt: number;
  recurrence?: readonly RecurrenceSlot[] | null | undefined;
}

export interface Occurrence {
  startsAt: number;
  endsAt: number;
}

const MINUTE_MS = 60_000;
const DAY_MS = 86_400_000;
/** Occurrences one expansion yields at most: a guard against `* * * * *` over years. */
const MAX_EXPANDED = 5_000;
export const MAX_SLOTS = 10;
/** The end of a recurring window's series when none is given. */
export const OPEN_ENDED = Date.UTC(9999, 11, 31);
export const MAX_DURATION_MIN = 7 * 24 * 60;

/** The rule's options, or the library's complaint. Only the RRULE part: the series' bounds are the window's. */
export function parseRrule(text: string): { options: Partial<import('rrule').Options> } | { error: string } {
  const body = text.trim().replace(/^RRULE:/i, '');
  if (/(^|;)(DTSTART|TZID)=/i.test(body)) return { error: 'give the RRULE part only: the time zone is `timezone`' };
  try {
    const options = RRule.parseString(body);
    if (typeof options.freq !== 'number') return { error: 'FREQ is missing or unknown' };
    const bad = Object.entries(options).find(
      ([, v]) => v === undefined || (Array.isArray(v) && v.some((x) => x === undefined || Number.isNaN(x))),
    );
    if (bad) return { error: `${bad[0]} has a value the rule does not know` };
    new RRule({ ...options, dtstart: new Date(0) }).after(new Date(0), true);
    return { options };
  } catch (error) {
    return { error: (error as Error).message };
  }
}

function cronError(expression: string): string | null {
  try {
    CronExpressionParser.parse(expression, { tz: 'UTC', strict: false });
    return null;
  } catch (error) {
    return (error as Error).message;
  }
}

/** One slot: exactly one of rrule or cron, each checked by its library (the error names the field). */
export const recurrenceSlotSchema = z
  .object({
    rrule: z.string().min(1).max(500).optional().describe('An RFC 5545 RRULE, e.g. FREQ=WEEKLY;BYDAY=MO;BYHOUR=2.'),
    cron: z
      .string()
      .min(1)
      .max(200)
      .optional()
      .describe('A cron expression, e.g. 0 2 * * 1 (minute hour day month weekday).'),
    timezone: z
      .string()
      .max(100)
      .refine(isTimeZone, 'must be an IANA time zone such as Europe/Berlin')
      .default('UTC')
      .describe('The IANA time zone the rule reads its times in.'),
    durationMin: z.number().int().min(1).max(MAX_DURATION_MIN).describe('How long each occurrence lasts, in minutes.'),
  })
  .strict()
  .superRefine((slot, ctx) => {
    if ((slot.rrule === undefined) === (slot.cron === undefined)) {
      ctx.addIssue({ code: 'custom', path: ['rrule'], message: 'give exactly one of rrule or cron' });
      return;
    }
    if (slot.rrule !== undefined) {
      const parsed = parseRrule(slot.rrule);
      if ('error' in parsed) ctx.addIssue({ code: 'custom', path: ['rrule'], message: parsed.error });
    }
    const error = slot.cron === undefined ? null : cronError(slot.cron);
    if (error !== null) ctx.addIssue({ code: 'custom', path: ['cron'], message: error });
  });

export const recurrenceSchema = z
  .array(recurrenceSlotSchema)
  .min(1)
  .max(MAX_SLOTS)
  .describe('Repeats the window: its occurrences start between startsAt and endsAt. Several slots are allowed.');

/** Wall-clock starts of a slot's occurrences between two floating times; the rule's day starts at the series' day. */
function floatingStarts(slot: RecurrenceSlot, seriesStart: number, from: number, to: number): number[] {
  if (slot.rrule !== undefined) {
    const parsed = parseRrule(slot.rrule);
    if ('error' in parsed) return [];
    const dayStart = Math.floor(toFloating(seriesStart, slot.timezone) / DAY_MS) * DAY_MS;
    const rule = new RRule({ ...parsed.options, dtstart: new Date(dayStart) });
    const starts: number[] = [];
    rule.between(new Date(from), new Date(to), true, (d) => starts.push(d.getTime()) < MAX_EXPANDED);
    return starts;
  }
  if (slot.cron === undefined || cronError(slot.cron) !== null) return [];
  const cron = CronExpressionParser.parse(slot.cron, {
    tz: 'UTC',
    currentDate: new Date(from - 1000),
    endDate: new Date(to),
  });
  const starts: number[] = [];
  while (starts.length < MAX_EXPANDED && cron.hasNext()) starts.push(cron.next().getTime());
  return starts;
}

/** The occurrences overlapping [from, to), oldest first; overlapping ones merge, all are cut to the window's bounds. */
export function occurrencesBetween(window: WindowTimes, from: number, to: number): Occurrence[] {
  const slots = window.recurrence ?? [];
  if (slots.length === 0)
    return window.startsAt < to && window.endsAt > from ? [{ startsAt: window.startsAt, endsAt: window.endsAt }] : [];
  const lo = Math.max(from, window.startsAt);
  const hi = Math.min(to, window.endsAt);
  if (lo >= hi) return [];
  const all: Occurrence[] = [];
  for (const slot of slots) {
    const durationMs = slot.durationMin * MINUTE_MS;
    // Two days either side of the wall-clock range cover any zone's offset.
    const starts = floatingStarts(slot, window.startsAt, lo - durationMs - 2 * DAY_MS, hi + 2 * DAY_MS);
    for (const wall of starts) {
      const startsAt = Math.max(fromFloating(wall, slot.timezone), window.startsAt);
      const endsAt = Math.min(fromFloating(wall, slot.timezone) + durationMs, window.endsAt);
      if (endsAt > startsAt && startsAt < hi && endsAt > lo) all.push({ startsAt, endsAt });
    }
  }
  return merge(all);
}

function merge(occurrences: Occurrence[]): Occurrence[] {
  const sorted = [...occurrences].sort((a, b) => a.startsAt - b.startsAt);
  const merged: Occurrence[] = [];
  for (const o of sorted) {
    const last = merged[merged.length - 1];
    if (last && o.startsAt <= last.endsAt) last.endsAt = Math.max(last.endsAt, o.endsAt);
    else merged.push({ ...o });
  }
  return merged;
}

/** The occurrence in progress at `at`, if any. */
export function occurrenceAt(window: WindowTimes, at: number): Occurrence | null {
  return occurrencesBetween(window, at, at + 1).find((o) => o.startsAt <= at && o.endsAt > at) ?? null;
}

/** Whether the window is in progress at `at`: the one place that says so, for one-off and recurring windows alike. */
export function activeAt(window: WindowTimes, at: number): boolean {
  return occurrenceAt(window, at) !== null;
}

/** The occurrence in progress at `at`, or else the next one (looked for up to about four years ahead). */
export function currentOrNextOccurrence(window: WindowTimes, at: number): Occurrence | null {
  if ((window.recurrence ?? []).length === 0)
    return window.endsAt > at ? { startsAt: window.startsAt, endsAt: window.endsAt } : null;
  for (const days of [8, 32, 367, 4 * 366]) {
    const found = occurrencesBetween(window, at, at + days * DAY_MS).find((o) => o.endsAt > at);
    if (found) return found;
    if (at + days * DAY_MS >= window.endsAt) return null;
  }
  return null;
}

/** The latest occurrence that ended in (since, at]. */
export function lastEndedOccurrence(window: WindowTimes, since: number, at: number): Occurrence | null {
  const longest = Math.max(0, ...(window.recurrence ?? []).map((s) => s.durationMin * MINUTE_MS));
  const ended = occurrencesBetween(window, since - longest, at + 1).filter((o) => o.endsAt <= at && o.endsAt > since);
  return ended[ended.length - 1] ?? null;
}
