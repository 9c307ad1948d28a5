// How a recurring window repeats, in words: the common RRULE and cron shapes said alike, the rest by rrule's own words
// or the expression itself.
import { describe, expect, it } from 'vitest';
import { describeRecurrence, durationText } from './recurrence-text.js';

// Tuesday 2026-03-10, 23:30 UTC: already Wednesday the 11th in Berlin.
const SERIES_START = Date.UTC(2026, 2, 10, 23, 30);
const rrule = (rule: string, timezone = 'UTC', durationMin = 30) =>
  describeRecurrence([{ rrule: rule, timezone, durationMin }], SERIES_START);
const cron = (expression: string, timezone = 'UTC', durationMin = 30) =>
  describeRecurrence([{ cron: expression, timezone, durationMin }], SERIES_START);

describe('a recurrence in words', () => {
  it('says weekly, daily, monthly and yearly RRULEs with their times, zone and duration', () => {
    expect(rrule('FREQ=WEEKLY;BYDAY=MO;BYHOUR=2', 'Europe/Berlin')).toBe(
      'Every Monday at 02:00 (Europe/Berlin), 30 min',
    );
    expect(rrule('RRULE:FREQ=WEEKLY;BYDAY=FR,MO;BYHOUR=2,14;BYMINUTE=30')).toBe(
      'Every Monday and Friday at 02:30 and 14:30 (UTC), 30 min',
    );
    expect(rrule('FREQ=WEEKLY;INTERVAL=2;BYDAY=TU,WE,TH', 'UTC', 90)).toBe(
      'Every 2 weeks on Tuesday to Thursday at 00:00 (UTC), 1 h 30 min',
    );
    expect(rrule('FREQ=DAILY;BYHOUR=23;BYMINUTE=5', 'UTC', 60)).toBe('Every day at 23:05 (UTC), 1 h');
    expect(rrule('FREQ=DAILY;INTERVAL=3;BYHOUR=4')).toBe('Every 3 days at 04:00 (UTC), 30 min');
    expect(rrule('FREQ=DAILY;BYDAY=SA,SU;BYHOUR=4')).toBe('Every Saturday and Sunday at 04:00 (UTC), 30 min');
    expect(rrule('FREQ=MONTHLY;BYMONTHDAY=1,15,-1;BYHOUR=3')).toBe(
      'Every month on the 1st, 15th and last day at 03:00 (UTC), 30 min',
    );
    expect(rrule('FREQ=MONTHLY;BYDAY=1SU;BYHOUR=3')).toBe('Every month on the 1st Sunday at 03:00 (UTC), 30 min');
    expect(rrule('FREQ=MONTHLY;INTERVAL=3;BYDAY=-1FR;BYHOUR=22')).toBe(
      'Every 3 months on the last Friday at 22:00 (UTC), 30 min',
    );
    expect(rrule('FREQ=YEARLY;BYMONTH=12;BYMONTHDAY=24;BYHOUR=18', 'UTC', 2880)).toBe(
      'Every year on December 24 at 18:00 (UTC), 2 days',
    );
    expect(rrule('FREQ=HOURLY;INTERVAL=6', 'UTC', 5)).toBe('Every 6 hours (UTC), 5 min');
    expect(rrule('FREQ=HOURLY;BYMINUTE=15', 'UTC', 5)).toBe('Every hour at :15 (UTC), 5 min');
  });

  it('takes the day a rule leaves out from the first day of the series, in its zone', () => {
    expect(rrule('FREQ=WEEKLY;BYHOUR=2', 'Europe/Berlin')).toBe('Every Wednesday at 02:00 (Europe/Berlin), 30 min');
    expect(rrule('FREQ=WEEKLY;BYHOUR=2', 'UTC')).toBe('Every Tuesday at 02:00 (UTC), 30 min');
    expect(rrule('FREQ=MONTHLY;BYHOUR=2', 'Europe/Berlin')).toBe(
      'Every month on the 11th at 02:00 (Europe/Berlin), 30 min',
    );
  });

  it('says rules of other shapes in rrule’s words, or as the rule', () => {
    expect(rrule('FREQ=MONTHLY;BYDAY=MO,TU;BYSETPOS=1;BYHOUR=3')).toBe(
      'RRULE FREQ=MONTHLY;BYDAY=MO,TU;BYSETPOS=1;BYHOUR=3 (UTC), 30 min',
    );
    expect(rrule('FREQ=WEEKLY;BYDAY=MO;COUNT=4')).toBe('Every week on Monday for 4 times (UTC), 30 min');
  });

  it('says common cron expressions the same way, and shows the others', () => {
    expect(cron('0 2 * * 1', 'Europe/Berlin')).toBe('Every Monday at 02:00 (Europe/Berlin), 30 min');
    expect(cron('30 4 * * MON-FRI')).toBe('Every Monday to Friday at 04:30 (UTC), 30 min');
    expect(cron('0 4 * * 0,6')).toBe('Every Saturday and Sunday at 04:00 (UTC), 30 min');
    expect(cron('0 4 * * 7')).toBe('Every Sunday at 04:00 (UTC), 30 min');
    expect(cron('15 3 * * *', 'UTC', 20)).toBe('Every day at 03:15 (UTC), 20 min');
    expect(cron('0 3,15 * * *')).toBe('Every day at 03:00 and 15:00 (UTC), 30 min');
    expect(cron('0 4 1,15 * *')).toBe('Every month on the 1st and 15th at 04:00 (UTC), 30 min');
    expect(cron('0 4 L * *')).toBe('Every month on the last day at 04:00 (UTC), 30 min');
    expect(cron('0 3 * * 0#2')).toBe('Every month on the 2nd Sunday at 03:00 (UTC), 30 min');
    expect(cron('0 6 1 1 *', 'UTC', 60)).toBe('Every year on January 1 at 06:00 (UTC), 1 h');
    expect(cron('*/15 * * * *', 'UTC', 5)).toBe('Every 15 minutes (UTC), 5 min');
    expect(cron('5 * * * *', 'UTC', 5)).toBe('Every hour at :05 (UTC), 5 min');
    expect(cron('0 */6 * * *', 'UTC', 5)).toBe('Every day at 00:00, 06:00, 12:00 and 18:00 (UTC), 5 min');
    expect(cron('0 */2 * * *', 'UTC', 5)).toBe('Every 2 hours (UTC), 5 min');
    expect(cron('@weekly')).toBe('Every Sunday at 00:00 (UTC), 30 min');
    // A day of the month and a weekday together: cron runs on either.
    expect(cron('0 4 1 * 1')).toBe('Cron 0 4 1 * 1 (UTC), 30 min');
    expect(cron('0 4 * 1-6 *')).toBe('Cron 0 4 * 1-6 * (UTC), 30 min');
  });

  it('joins several slots, and says durations in minutes, hours and days', () => {
    expect(
      describeRecurrence(
        [
          { rrule: 'FREQ=WEEKLY;BYDAY=MO;BYHOUR=2', timezone: 'Europe/Berlin', durationMin: 30 },
          { cron: '0 4 1 * *', timezone: 'UTC', durationMin: 60 },
        ],
        SERIES_START,
      ),
    ).toBe('Every Monday at 02:00 (Europe/Berlin), 30 min; Every month on the 1st at 04:00 (UTC), 1 h');
    expect([45, 60, 75, 1440, 1500, 4320].map(durationText)).toEqual([
      '45 min',
      '1 h',
      '1 h 15 min',
      '1 day',
      '25 h',
      '3 days',
    ]);
  });
});
