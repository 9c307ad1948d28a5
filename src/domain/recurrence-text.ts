// How a recurring maintenance window repeats, in words for the public page: "Every Monday at 02:00 (Europe/Berlin),
// 30 min". The common shapes of an RRULE (FREQ with INTERVAL, BYDAY, BYMONTHDAY, BYHOUR, BYMINUTE) and of a cron
// expression (cron-schedule.ts) are read into one Schedule and said the same way; any other rule falls back to rrule's
// own toText, or to the expression itself.
import rrulePackage from 'rrule';
import { cronSchedule } from './cron-schedule.js';
import { parseRrule, type RecurrenceSlot } from './recurrence.js';
import { type MonthDays, pad, type Schedule, timesOf } from './recurrence-schedule.js';
import { toFloating } from './zoned-time.js';

const { RRule } = rrulePackage;

const WEEKDAYS = ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday', 'Sunday'];
/** The months' English names, January first (also the uptime history's, render/uptime-history.ts). */
export const MONTHS = [
  'January',
  'February',
  'March',
  'April',
  'May',
  'June',
  'July',
  'August',
  'September',
  'October',
  'November',
  'December',
];
const DAY_MS = 86_400_000;
const RRULE_DAYS: readonly string[] = ['MO', 'TU', 'WE', 'TH', 'FR', 'SA', 'SU'];

/** Each slot in words, joined: how the window repeats. `seriesStart` gives the day a rule without one falls on. */
export function describeRecurrence(slots: readonly RecurrenceSlot[], seriesStart: number): string {
  return slots.map((slot) => describeSlot(slot, seriesStart)).join('; ');
}

export function describeSlot(slot: RecurrenceSlot, seriesStart: number): string {
  let rule: string;
  if (slot.rrule !== undefined) {
    const schedule = rruleSchedule(slot.rrule, seriesStart, slot.timezone);
    rule = typeof schedule === 'string' ? schedule : scheduleText(schedule);
  } else {
    const schedule = cronSchedule(slot.cron ?? '');
    rule = schedule === null ? `Cron ${slot.cron}` : scheduleText(schedule);
  }
  return `${rule} (${slot.timezone}), ${durationText(slot.durationMin)}`;
}

/** "30 min", "1 h", "1 h 30 min", "2 days". */
export function durationText(minutes: number): string {
  if (minutes % 1440 === 0) return minutes === 1440 ? '1 day' : `${minutes / 1440} days`;
  const h = Math.floor(minutes / 60);
  const m = minutes % 60;
  return [h > 0 ? `${h} h` : '', m > 0 ? `${m} min` : ''].filter(Boolean).join(' ');
}

export function scheduleText(s: Schedule): string {
  const every = (n: number, one: string, many: string) => (n === 1 ? `Every ${one}` : `Every ${n} ${many}`);
  switch (s.every) {
    case 'minutes':
      return every(s.n, 'minute', 'minutes');
    case 'hours': {
      const at = s.minutes.length === 1 && s.minutes[0] === 0 ? '' : ` at ${list(s.minutes.map((m) => `:${pad(m)}`))}`;
      return every(s.n, 'hour', 'hours') + at;
    }
    case 'days':
      return `${every(s.n, 'day', 'days')} ${at(s.times)}`;
    case 'weeks':
      return s.n === 1
        ? `Every ${weekdays(s.weekdays)} ${at(s.times)}`
        : `Every ${s.n} weeks on ${weekdays(s.weekdays)} ${at(s.times)}`;
    case 'months':
      return `${every(s.n, 'month', 'months')} on ${monthDays(s.on)} ${at(s.times)}`;
    case 'years':
      return `${every(s.n, 'year', 'years')} on ${MONTHS[s.month - 1]} ${s.day} ${at(s.times)}`;
  }
}

/**
 * The schedule of an RRULE, or the words to show instead. Times the rule does not give are midnight's and the day it
 * does not give is the series' first (recurrence.ts starts each rule at the series' first midnight in the zone).
 */
function rruleSchedule(text: string, seriesStart: number, timezone: string): Schedule | string {
  const parsed = parseRrule(text);
  if ('error' in parsed) return `RRULE ${text}`;
  const o = parsed.options;
  // rrule's words leave out times and BYSETPOS: said only for rules without them, else the rule itself.
  const fallback = () => {
    const rule = new RRule(o);
    const unsaid = ['byhour', 'byminute', 'bysecond', 'bysetpos', 'byyearday', 'byweekno'] as const;
    if (!rule.isFullyConvertibleToText() || unsaid.some((k) => o[k] !== undefined && o[k] !== null))
      return `RRULE ${text.trim().replace(/^RRULE:/i, '')}`;
    const words = rule.toText();
    return words.charAt(0).toUpperCase() + words.slice(1);
  };
  const unknown = ['count', 'until', 'bysetpos', 'byyearday', 'byweekno', 'byeaster'] as const;
  if (unknown.some((k) => o[k] !== undefined && o[k] !== null) || !isZero(o.bysecond)) return fallback();
  const n = o.interval ?? 1;
  const hours = numbers(o.byhour) ?? [0];
  const minutes = numbers(o.byminute) ?? [0];
  const times = timesOf(hours, minutes);
  const byday = (Array.isArray(o.byweekday) ? o.byweekday : o.byweekday ? [o.byweekday] : []).map((d) =>
    typeof d === 'number'
      ? { weekday: d, n: undefined }
      : typeof d === 'string'
        ? { weekday: RRULE_DAYS.indexOf(d), n: undefined }
        : { weekday: d.weekday, n: d.n },
  );
  const plainDays = byday.every((d) => !d.n) ? byday.map((d) => d.weekday) : null;
  const start = new Date(Math.floor(toFloating(seriesStart, timezone) / DAY_MS) * DAY_MS);
  const monthdays = numbers(o.bymonthday);
  const months = numbers(o.bymonth);
  const noDays = byday.length === 0 && monthdays === undefined;
  switch (o.freq) {
    case RRule.MINUTELY:
      return noDays && months === undefined && o.byhour == null && o.byminute == null
        ? { every: 'minutes', n }
        : fallback();
    case RRule.HOURLY:
      return noDays && months === undefined && o.byhour == null ? { every: 'hours', n, minutes } : fallback();
    case RRule.DAILY:
      if (!times || months !== undefined || monthdays !== undefined || !plainDays) return fallback();
      if (byday.length === 0 || plainDays.length === 7) return { every: 'days', n, times };
      return n === 1 ? { every: 'weeks', n, weekdays: plainDays, times } : fallback();
    case RRule.WEEKLY:
      if (!times || months !== undefined || monthdays !== undefined || !plainDays) return fallback();
      return { every: 'weeks', n, weekdays: byday.length > 0 ? plainDays : [(start.getUTCDay() + 6) % 7], times };
    case RRule.MONTHLY: {
      if (!times || months !== undefined || (monthdays !== undefined && byday.length > 0)) return fallback();
      if (monthdays !== undefined) return { every: 'months', n, on: { days: monthdays }, times };
      const [nth] = byday;
      if (byday.length === 1 && nth?.n) return { every: 'months', n, on: { weekday: nth.weekday, nth: nth.n }, times };
      return byday.length === 0 ? { every: 'months', n, on: { days: [start.getUTCDate()] }, times } : fallback();
    }
    case RRule.YEARLY: {
      const [month] = months ?? [start.getUTCMonth() + 1];
      const [day] = monthdays ?? [start.getUTCDate()];
      const single = (months?.length ?? 1) === 1 && (monthdays?.length ?? 1) === 1 && byday.length === 0;
      return times && single && month && day && day > 0 ? { every: 'years', n, month, day, times } : fallback();
    }
    default:
      return fallback();
  }
}

function numbers(value: number | number[] | null | undefined): number[] | undefined {
  if (value === null || value === undefined) return undefined;
  // Days from the month's end (-1) after those from its start.
  const rank = (n: number) => (n < 0 ? 1000 + n : n);
  return Array.isArray(value) ? [...value].sort((a, b) => rank(a) - rank(b)) : [value];
}

function isZero(value: number | number[] | null | undefined): boolean {
  const all = numbers(value);
  return all === undefined || (all.length === 1 && all[0] === 0);
}

const at = (times: string[]) => `at ${list(times)}`;

/** "a", "a and b", "a, b and c". */
function list(items: readonly string[]): string {
  return items.length <= 1 ? (items[0] ?? '') : `${items.slice(0, -1).join(', ')} and ${items.at(-1)}`;
}

/** "Monday", "Monday and Thursday", or a run of three or more as "Monday to Friday". */
function weekdays(days: readonly number[]): string {
  const sorted = [...new Set(days)].sort((a, b) => a - b);
  const first = sorted[0] ?? 0;
  const last = sorted.at(-1) ?? 0;
  if (sorted.length >= 3 && last - first === sorted.length - 1) return `${WEEKDAYS[first]} to ${WEEKDAYS[last]}`;
  return list(sorted.map((d) => WEEKDAYS[d] ?? ''));
}

function monthDays(on: MonthDays): string {
  const fromEnd = (n: number, what: string) => (n === -1 ? `last ${what}` : `${ordinal(-n)} to last ${what}`);
  if ('days' in on) return `the ${list(on.days.map((d) => (d < 0 ? fromEnd(d, 'day') : ordinal(d))))}`;
  const day = WEEKDAYS[on.weekday] ?? '';
  return `the ${on.nth < 0 ? fromEnd(on.nth, day) : `${ordinal(on.nth)} ${day}`}`;
}

/** 1st, 2nd, 3rd, 4th, 11th, 21st. */
function ordinal(n: number): string {
  const teen = n % 100 >= 11 && n % 100 <= 13;
  const suffix = teen ? 'th' : (['th', 'st', 'nd', 'rd'][n % 10] ?? 'th');
  return `${n}${suffix}`;
}
