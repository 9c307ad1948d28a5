// Recurring maintenance windows: occurrences of RRULEs and cron expressions in a time zone, across DST changes.
import { describe, expect, it } from 'vitest';
import {
  activeAt,
  currentOrNextOccurrence,
  lastEndedOccurrence,
  occurrenceAt,
  occurrencesBetween,
  recurrenceSlotSchema,
  type WindowTimes,
} from './recurrence.js';
import { fromFloating, toFloating } from './zoned-time.js';

const t = (iso: string) => Date.parse(iso);
const FOREVER = t('9999-12-31T00:00:00Z');
const win = (recurrence: WindowTimes['recurrence'], startsAt = t('2026-01-01T00:00:00Z')): WindowTimes => ({
  startsAt,
  endsAt: FOREVER,
  recurrence,
});
const iso = (o: { startsAt: number; endsAt: number }) => [
  new Date(o.startsAt).toISOString(),
  new Date(o.endsAt).toISOString(),
];

describe('occurrences', () => {
  it('repeats weekly on a day at a time in the zone', () => {
    const w = win([{ rrule: 'FREQ=WEEKLY;BYDAY=MO;BYHOUR=2', timezone: 'Europe/Berlin', durationMin: 30 }]);
    const got = occurrencesBetween(w, t('2026-01-01T00:00:00Z'), t('2026-01-20T00:00:00Z')).map(iso);
    expect(got).toEqual([
      ['2026-01-05T01:00:00.000Z', '2026-01-05T01:30:00.000Z'],
      ['2026-01-12T01:00:00.000Z', '2026-01-12T01:30:00.000Z'],
      ['2026-01-19T01:00:00.000Z', '2026-01-19T01:30:00.000Z'],
    ]);
  });

  it('repeats daily and monthly', () => {
    const daily = win([{ rrule: 'FREQ=DAILY;BYHOUR=23;BYMINUTE=30', timezone: 'UTC', durationMin: 60 }]);
    expect(occurrencesBetween(daily, t('2026-02-01T00:00:00Z'), t('2026-02-03T00:00:00Z')).map(iso)).toEqual([
      ['2026-01-31T23:30:00.000Z', '2026-02-01T00:30:00.000Z'],
      ['2026-02-01T23:30:00.000Z', '2026-02-02T00:30:00.000Z'],
      ['2026-02-02T23:30:00.000Z', '2026-02-03T00:30:00.000Z'],
    ]);
    const monthly = win([
      { rrule: 'FREQ=MONTHLY;BYMONTHDAY=1;BYHOUR=4', timezone: 'America/New_York', durationMin: 15 },
    ]);
    expect(
      occurrencesBetween(monthly, t('2026-03-15T00:00:00Z'), t('2026-05-15T00:00:00Z')).map((o) => iso(o)[0]),
    ).toEqual(['2026-04-01T08:00:00.000Z', '2026-05-01T08:00:00.000Z']);
  });

  it('reads a cron expression in the zone', () => {
    const w = win([{ cron: '0 2 * * 1', timezone: 'America/New_York', durationMin: 30 }]);
    expect(occurrencesBetween(w, t('2026-01-01T00:00:00Z'), t('2026-01-13T00:00:00Z')).map((o) => iso(o)[0])).toEqual([
      '2026-01-05T07:00:00.000Z',
      '2026-01-12T07:00:00.000Z',
    ]);
  });

  it('is active during any of several slots, merging overlaps', () => {
    const w = win([
      { rrule: 'FREQ=WEEKLY;BYDAY=MO;BYHOUR=2', timezone: 'UTC', durationMin: 60 },
      { cron: '30 2 * * 1', timezone: 'UTC', durationMin: 60 },
      { cron: '0 12 * * 3', timezone: 'UTC', durationMin: 10 },
    ]);
    expect(occurrencesBetween(w, t('2026-01-05T00:00:00Z'), t('2026-01-08T00:00:00Z')).map(iso)).toEqual([
      ['2026-01-05T02:00:00.000Z', '2026-01-05T03:30:00.000Z'],
      ['2026-01-07T12:00:00.000Z', '2026-01-07T12:10:00.000Z'],
    ]);
    expect(activeAt(w, t('2026-01-07T12:05:00Z'))).toBe(true);
    expect(activeAt(w, t('2026-01-07T12:10:00Z'))).toBe(false);
  });

  it('stays within the series bounds', () => {
    const w = {
      ...win([{ rrule: 'FREQ=DAILY;BYHOUR=10', timezone: 'UTC', durationMin: 120 }]),
      endsAt: t('2026-01-03T11:00:00Z'),
    };
    expect(occurrencesBetween(w, 0, FOREVER).map(iso)).toEqual([
      ['2026-01-01T10:00:00.000Z', '2026-01-01T12:00:00.000Z'],
      ['2026-01-02T10:00:00.000Z', '2026-01-02T12:00:00.000Z'],
      ['2026-01-03T10:00:00.000Z', '2026-01-03T11:00:00.000Z'],
    ]);
  });

  it('treats a one-off window as its one occurrence', () => {
    const w = { startsAt: 100, endsAt: 200, recurrence: null };
    expect(activeAt(w, 150)).toBe(true);
    expect(activeAt(w, 200)).toBe(false);
    expect(currentOrNextOccurrence(w, 50)).toEqual({ startsAt: 100, endsAt: 200 });
    expect(currentOrNextOccurrence(w, 250)).toBeNull();
    const far = { startsAt: t('2040-01-01T00:00:00Z'), endsAt: t('2040-01-02T00:00:00Z'), recurrence: null };
    expect(currentOrNextOccurrence(far, t('2026-01-01T00:00:00Z'))?.startsAt).toBe(far.startsAt);
  });
});

describe('daylight-saving changes', () => {
  it('keeps the wall-clock time across spring-forward and fall-back in Berlin', () => {
    const w = win([{ rrule: 'FREQ=DAILY;BYHOUR=1', timezone: 'Europe/Berlin', durationMin: 30 }]);
    const starts = (from: string, to: string) => occurrencesBetween(w, t(from), t(to)).map((o) => iso(o)[0]);
    expect(starts('2026-03-28T00:00:00Z', '2026-03-30T00:00:00Z')).toEqual([
      '2026-03-28T00:00:00.000Z', // 01:00 CET
      '2026-03-29T00:00:00.000Z', // 01:00 CET, the change is at 02:00
      '2026-03-29T23:00:00.000Z', // 01:00 CEST
    ]);
    expect(starts('2026-10-24T00:00:00Z', '2026-10-27T00:00:00Z')).toEqual([
      '2026-10-24T23:00:00.000Z', // 01:00 CEST
      '2026-10-26T00:00:00.000Z', // 01:00 CET
    ]);
  });

  it('moves a skipped time forward and takes the first of a doubled one (Berlin)', () => {
    const gap = win([{ rrule: 'FREQ=DAILY;BYHOUR=2;BYMINUTE=30', timezone: 'Europe/Berlin', durationMin: 30 }]);
    expect(occurrenceAt(gap, t('2026-03-29T01:45:00Z'))).toEqual({
      startsAt: t('2026-03-29T01:30:00Z'), // 03:30 CEST: 02:30 did not happen
      endsAt: t('2026-03-29T02:00:00Z'),
    });
    const overlap = occurrencesBetween(gap, t('2026-10-25T00:00:00Z'), t('2026-10-25T03:00:00Z'));
    expect(overlap.map(iso)).toEqual([['2026-10-25T00:30:00.000Z', '2026-10-25T01:00:00.000Z']]); // the first 02:30, CEST
  });

  it('handles both changes in New York, by cron', () => {
    const w = win([{ cron: '30 2 * * *', timezone: 'America/New_York', durationMin: 60 }]);
    expect(occurrencesBetween(w, t('2026-03-08T00:00:00Z'), t('2026-03-08T12:00:00Z')).map((o) => iso(o)[0])).toEqual([
      '2026-03-08T07:30:00.000Z', // 02:30 does not exist: 03:30 EDT
    ]);
    expect(occurrencesBetween(w, t('2026-11-01T00:00:00Z'), t('2026-11-01T12:00:00Z')).map((o) => iso(o)[0])).toEqual([
      '2026-11-01T07:30:00.000Z', // 02:30 EST (02:30 happens once; 01:30 is the doubled hour)
    ]);
    expect(fromFloating(t('2026-11-01T01:30:00Z'), 'America/New_York')).toBe(t('2026-11-01T05:30:00Z'));
    expect(toFloating(t('2026-11-01T06:30:00Z'), 'America/New_York')).toBe(t('2026-11-01T01:30:00Z'));
  });
});

describe('next and last occurrences', () => {
  const w = win([{ rrule: 'FREQ=WEEKLY;BYDAY=MO;BYHOUR=2', timezone: 'UTC', durationMin: 30 }]);
  it('finds the one in progress, else the next', () => {
    expect(currentOrNextOccurrence(w, t('2026-01-05T02:10:00Z'))?.startsAt).toBe(t('2026-01-05T02:00:00Z'));
    expect(currentOrNextOccurrence(w, t('2026-01-05T02:30:00Z'))?.startsAt).toBe(t('2026-01-12T02:00:00Z'));
    const yearly = win([{ rrule: 'FREQ=YEARLY;BYMONTH=2;BYMONTHDAY=29', timezone: 'UTC', durationMin: 5 }]);
    expect(currentOrNextOccurrence(yearly, t('2026-03-01T00:00:00Z'))?.startsAt).toBe(t('2028-02-29T00:00:00Z'));
  });
  it('finds the latest that ended', () => {
    expect(lastEndedOccurrence(w, t('2026-01-01T00:00:00Z'), t('2026-01-13T00:00:00Z'))?.startsAt).toBe(
      t('2026-01-12T02:00:00Z'),
    );
    expect(lastEndedOccurrence(w, t('2026-01-12T03:00:00Z'), t('2026-01-13T00:00:00Z'))).toBeNull();
  });
});

describe('validation', () => {
  const error = (slot: object) => {
    const r = recurrenceSlotSchema.safeParse(slot);
    return r.success ? null : r.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`);
  };
  it('takes one of rrule or cron, checked by its library', () => {
    expect(error({ rrule: 'FREQ=WEEKLY;BYDAY=MO', timezone: 'Europe/Berlin', durationMin: 30 })).toBeNull();
    expect(error({ cron: '0 2 * * 1', durationMin: 30 })).toBeNull();
    expect(error({ rrule: 'FREQ=WEEKLY', cron: '0 2 * * 1', durationMin: 30 })?.[0]).toMatch(
      /^rrule: give exactly one/,
    );
    expect(error({ rrule: 'FREQ=SOMETIMES', durationMin: 30 })?.[0]).toMatch(/^rrule: /);
    expect(error({ rrule: 'FREQ=DAILY;BYDAY=XX', durationMin: 30 })?.[0]).toMatch(/^rrule: /);
    expect(error({ rrule: 'FREQ=DAILY;FOO=1', durationMin: 30 })?.[0]).toMatch(/^rrule: Unknown RRULE property/);
    expect(error({ cron: '61 2 * * 1', durationMin: 30 })?.[0]).toMatch(/^cron: Constraint error/);
    expect(error({ cron: '0 2 * * 1', timezone: 'Mars/Olympus', durationMin: 30 })?.[0]).toMatch(/^timezone: /);
    expect(error({ cron: '0 2 * * 1', durationMin: 0 })?.[0]).toMatch(/^durationMin: /);
  });
});
