// A recurring window's rule read into its shape (an RRULE's in recurrence-text.ts, a cron expression's in
// cron-schedule.ts), so both are said the same way.

/** Weekdays are 0 (Monday) to 6 (Sunday); times are "HH:MM" on the zone's wall clock. */
export type Schedule =
  | { every: 'minutes'; n: number }
  | { every: 'hours'; n: number; minutes: number[] }
  | { every: 'days'; n: number; times: string[] }
  | { every: 'weeks'; n: number; weekdays: number[]; times: string[] }
  | { every: 'months'; n: number; on: MonthDays; times: string[] }
  | { every: 'years'; n: number; month: number; day: number; times: string[] };

/** Days of the month (-1: the last, -2 the one before), or the nth weekday (-1: the last). */
export type MonthDays = { days: number[] } | { weekday: number; nth: number };

/** More times a day than this read better as the rule itself. */
const MAX_TIMES = 6;

/** Every hour with every minute, "HH:MM", sorted; undefined when there are too many to read. */
export function timesOf(hours: readonly number[], minutes: readonly number[]): string[] | undefined {
  if (hours.length * minutes.length > MAX_TIMES) return undefined;
  return hours.flatMap((h) => minutes.map((m) => `${pad(h)}:${pad(m)}`)).sort();
}

export const pad = (n: number): string => String(n).padStart(2, '0');
