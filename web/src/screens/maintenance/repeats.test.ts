// The maintenance form's "Repeats" choice to the API's recurrence slots and back.
import { describe, expect, it } from 'vitest';
import { repeatsOf, slotsOf } from './repeats';

describe('repeats', () => {
  it('does not repeat a new window, and sends null for that', () => {
    const r = repeatsOf(undefined, 'Europe/Berlin');
    expect(r.mode).toBe('none');
    expect(slotsOf(r)).toBeNull();
  });

  it('writes weekly days at a time as an RRULE, and reads it back as weekly', () => {
    const r = { ...repeatsOf(null, 'Europe/Berlin'), mode: 'weekly' as const, days: ['FR', 'MO'], time: '02:30' };
    const slots = slotsOf(r);
    expect(slots).toEqual([
      { rrule: 'FREQ=WEEKLY;BYDAY=MO,FR;BYHOUR=2;BYMINUTE=30', timezone: 'Europe/Berlin', durationMin: 60 },
    ]);
    expect(repeatsOf(slots, 'UTC')).toMatchObject({ mode: 'weekly', days: ['MO', 'FR'], time: '02:30' });
  });

  it('keeps a custom rule, a cron expression and several slots as they are', () => {
    const rrule = [{ rrule: 'FREQ=MONTHLY;BYMONTHDAY=1', timezone: 'UTC', durationMin: 15 }];
    expect(slotsOf(repeatsOf(rrule, 'UTC'))).toEqual(rrule);
    const cron = [{ cron: '0 2 * * 1', timezone: 'America/New_York', durationMin: 30 }];
    expect(slotsOf(repeatsOf(cron, 'UTC'))).toEqual(cron);
    const several = [...rrule, ...cron];
    expect(repeatsOf(several, 'UTC').mode).toBe('kept');
    expect(slotsOf(repeatsOf(several, 'UTC'))).toEqual(several);
  });
});
