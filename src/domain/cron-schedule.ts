// The common shapes of a cron expression as a Schedule (recurrence-schedule.ts; recurrence-text.ts says it in words): every N minutes, hourly,
// daily, on weekdays, on days of the month (or its nth weekday), once a year. cron-parser has no describer; it parses
// the fields, and anything else (a day of the month and a weekday together, seconds, ranges of months) is null: the
// expression itself is shown then.
import { CronExpressionParser } from 'cron-parser';
import { type Schedule, timesOf } from './recurrence-schedule.js';

type Values = readonly (number | string)[];

export function cronSchedule(expression: string): Schedule | null {
  let fields: ReturnType<typeof CronExpressionParser.parse>['fields'];
  try {
    fields = CronExpressionParser.parse(expression, { tz: 'UTC', strict: false }).fields;
  } catch {
    return null;
  }
  const [seconds, minutes, hours, monthDays, months, weekdayValues] = [
    fields.second.values,
    fields.minute.values,
    fields.hour.values,
    fields.dayOfMonth.values,
    fields.month.values,
    fields.dayOfWeek.values,
  ].map(asNumbers);
  if (!minutes || !hours || !months || seconds?.length !== 1 || seconds[0] !== 0) return null;
  // cron's Sunday is 0 or 7; the schedule's week starts on Monday (0).
  const weekdays = weekdayValues && [...new Set(weekdayValues.map((d) => (d + 6) % 7))].sort((a, b) => a - b);
  const anyWeekday = weekdays?.length === 7;
  const anyDay = monthDays?.length === 31;
  const everyDay = anyDay && anyWeekday && months.length === 12;
  if (hours.length === 24) {
    if (!everyDay) return null;
    const step = evenStep(minutes, 60);
    if (minutes.length === 60) return { every: 'minutes', n: 1 };
    if (step !== null && minutes.length > 1) return { every: 'minutes', n: step };
    return timesOf([0], minutes) ? { every: 'hours', n: 1, minutes } : null;
  }
  const times = timesOf(hours, minutes);
  if (!times) {
    const step = evenStep(hours, 24);
    return everyDay && step !== null && minutes.length === 1 ? { every: 'hours', n: step, minutes } : null;
  }
  if (months.length !== 12) {
    const [month] = months;
    const [day] = monthDays ?? [];
    const yearly = months.length === 1 && monthDays?.length === 1 && anyWeekday;
    return yearly && month !== undefined && day !== undefined ? { every: 'years', n: 1, month, day, times } : null;
  }
  if (anyDay && anyWeekday) return { every: 'days', n: 1, times };
  // A day of the month and a weekday together: cron runs on either, a shape said better by the expression.
  if (!anyDay && !anyWeekday) return null;
  if (!anyWeekday) {
    const nth = fields.dayOfWeek.nthDay;
    if (!weekdays) return null;
    if (nth > 0)
      return weekdays.length === 1 ? { every: 'months', n: 1, on: { weekday: weekdays[0] ?? 0, nth }, times } : null;
    return { every: 'weeks', n: 1, weekdays, times };
  }
  const lastDay = (fields.dayOfMonth.values as Values).includes('L');
  const days = asNumbers((fields.dayOfMonth.values as Values).filter((d) => d !== 'L'));
  return days ? { every: 'months', n: 1, on: { days: lastDay ? [...days, -1] : days }, times } : null;
}

/** The values as numbers, sorted; null when one is not a number (cron's L, W or # forms). */
function asNumbers(values: Values): number[] | null {
  if (values.some((v) => typeof v !== 'number')) return null;
  return [...(values as number[])].sort((a, b) => a - b);
}

/** The step of values 0, s, 2s, … that fill a cycle of `size` (every 15 minutes: 0, 15, 30, 45); null otherwise. */
function evenStep(values: readonly number[], size: number): number | null {
  const step = values.length > 1 ? (values[1] ?? 0) - (values[0] ?? 0) : size;
  if (values[0] !== 0 || size % step !== 0 || values.length !== size / step) return null;
  return values.every((v, i) => v === i * step) ? step : null;
}
