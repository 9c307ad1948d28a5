// The ranges the Reports screen offers: presets counted back from today (UTC days, as the report's default time zone
// has them), or two dates of the user's own.
export type RangePreset = 'last-7' | 'last-30' | 'last-90' | 'this-month' | 'last-month' | 'last-12-months' | 'custom';

export const RANGE_PRESETS: readonly { value: RangePreset; label: string }[] = [
  { value: 'last-7', label: '7 days' },
  { value: 'last-30', label: '30 days' },
  { value: 'last-90', label: '90 days' },
  { value: 'this-month', label: 'This month' },
  { value: 'last-month', label: 'Last month' },
  { value: 'last-12-months', label: '12 months' },
  { value: 'custom', label: 'Custom' },
];

export interface DayRange {
  /** First day, `YYYY-MM-DD`, included. */
  from: string;
  /** Last day, `YYYY-MM-DD`, included. */
  to: string;
}

const DAY_MS = 86_400_000;

/** A UTC day as `YYYY-MM-DD`. */
export function isoDay(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10);
}

/** The days a preset covers at `now` (epoch ms); null for `custom`, whose days the user gives. */
export function presetRange(preset: RangePreset, now: number): DayRange | null {
  const today = isoDay(now);
  const back = (days: number): DayRange => ({ from: isoDay(now - days * DAY_MS), to: today });
  const date = new Date(now);
  const [year, month] = [date.getUTCFullYear(), date.getUTCMonth()];
  switch (preset) {
    case 'last-7':
      return back(6);
    case 'last-30':
      return back(29);
    case 'last-90':
      return back(89);
    case 'this-month':
      return { from: isoDay(Date.UTC(year, month, 1)), to: today };
    case 'last-month':
      return { from: isoDay(Date.UTC(year, month - 1, 1)), to: isoDay(Date.UTC(year, month, 0)) };
    case 'last-12-months':
      return { from: isoDay(Date.UTC(year, month - 11, 1)), to: today };
    case 'custom':
      return null;
  }
}

/** Months read better than 365 points: a range longer than 92 days is shown per month. */
export function naturalGranularity(range: DayRange): 'day' | 'month' {
  const days = (Date.parse(range.to) - Date.parse(range.from)) / DAY_MS + 1;
  return days > 92 ? 'month' : 'day';
}
