// The maintenance form's "Repeats" choice and the API's recurrence slots, both ways: none, weekly on days at a time,
// a custom RRULE or a cron expression, in a time zone, for a duration. Several slots (from the API or warden.yaml) are
// kept as they are unless the choice changes.
import type { MaintenanceView } from '../../api/maintenance';

export type RecurrenceSlot = NonNullable<MaintenanceView['recurrence']>[number];
export type RepeatsMode = 'none' | 'weekly' | 'rrule' | 'cron' | 'kept';

export interface Repeats {
  mode: RepeatsMode;
  days: string[];
  /** `HH:MM` on the wall clock of `timezone`. */
  time: string;
  rrule: string;
  cron: string;
  timezone: string;
  durationMin: number;
  /** The slots as they came, for `kept`. */
  slots: RecurrenceSlot[];
}

export const WEEKDAYS = ['MO', 'TU', 'WE', 'TH', 'FR', 'SA', 'SU'] as const;
const WEEKLY =
  /^FREQ=WEEKLY;BYDAY=((?:MO|TU|WE|TH|FR|SA|SU)(?:,(?:MO|TU|WE|TH|FR|SA|SU))*);BYHOUR=(\d{1,2});BYMINUTE=(\d{1,2})$/;
const pad = (n: number) => String(n).padStart(2, '0');

/** What the form shows for a window's slots (none for a new window). */
export function repeatsOf(slots: RecurrenceSlot[] | null | undefined, browserZone: string): Repeats {
  const base: Repeats = {
    mode: 'none',
    days: ['MO'],
    time: '02:00',
    rrule: 'FREQ=WEEKLY;BYDAY=MO;BYHOUR=2;BYMINUTE=0',
    cron: '0 2 * * 1',
    timezone: browserZone,
    durationMin: 60,
    slots: slots ?? [],
  };
  const [slot] = slots ?? [];
  if (!slots || !slot) return base;
  const shared = { ...base, timezone: slot.timezone ?? 'UTC', durationMin: slot.durationMin };
  if (slots.length > 1) return { ...shared, mode: 'kept' };
  if (slot.cron !== undefined) return { ...shared, mode: 'cron', cron: slot.cron };
  const weekly = WEEKLY.exec(slot.rrule ?? '');
  if (weekly)
    return {
      ...shared,
      mode: 'weekly',
      days: (weekly[1] ?? 'MO').split(','),
      time: `${pad(Number(weekly[2]))}:${pad(Number(weekly[3]))}`,
    };
  return { ...shared, mode: 'rrule', rrule: slot.rrule ?? '' };
}

/** The slots to send: null for none (one-off), the kept ones unchanged. */
export function slotsOf(repeats: Repeats): RecurrenceSlot[] | null {
  const { timezone, durationMin } = repeats;
  switch (repeats.mode) {
    case 'none':
      return null;
    case 'kept':
      return repeats.slots;
    case 'cron':
      return [{ cron: repeats.cron.trim(), timezone, durationMin }];
    case 'rrule':
      return [{ rrule: repeats.rrule.trim(), timezone, durationMin }];
    case 'weekly': {
      const [hour, minute] = repeats.time.split(':').map(Number);
      const days = WEEKDAYS.filter((d) => repeats.days.includes(d)).join(',') || 'MO';
      return [
        { rrule: `FREQ=WEEKLY;BYDAY=${days};BYHOUR=${hour ?? 0};BYMINUTE=${minute ?? 0}`, timezone, durationMin },
      ];
    }
  }
}
