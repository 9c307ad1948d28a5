// A monitor's own expected restart: recurring slots (an RRULE or cron in a time zone, with a duration) during which
// the monitor counts as under maintenance (its alerts keep quiet, its components show maintenance) with no window on
// any page. Evaluated where maintenance cover is decided; never stored as occurrences.
import { z } from 'zod';
import {
  activeAt,
  MAX_SLOTS,
  OPEN_ENDED,
  parseRrule,
  type RecurrenceSlot,
  recurrenceSlotSchema,
} from './recurrence.js';

/** Where an RRULE's series starts (a Monday): its INTERVAL and a weekly rule without BYDAY count from this day. */
export const EXPECTED_RESTART_SERIES_START = Date.UTC(2024, 0, 1);

/** Rules are expanded from the series start on each read: more often than daily, use cron (it reads only nearby times). */
const SLOW_FREQUENCIES = /(^|;)FREQ=(HOURLY|MINUTELY|SECONDLY)(;|$)/i;

export const expectedRestartSchema = z
  .array(
    recurrenceSlotSchema.superRefine((slot, ctx) => {
      if (slot.rrule === undefined || 'error' in parseRrule(slot.rrule)) return;
      if (SLOW_FREQUENCIES.test(slot.rrule.trim().replace(/^RRULE:/i, '')))
        ctx.addIssue({ code: 'custom', path: ['rrule'], message: 'an RRULE here repeats at most daily: use cron' });
    }),
  )
  .min(1)
  .max(MAX_SLOTS)
  .describe(
    'When the monitor restarts on purpose: slots of an RRULE (at most daily) or a cron expression in a time zone, each lasting durationMin. During one the monitor counts as under maintenance: its alerts keep quiet and its components show maintenance.',
  );

/** Whether the monitor is in one of its expected restarts at `at`. */
export function restartExpectedAt(slots: readonly RecurrenceSlot[] | null | undefined, at: number): boolean {
  if (!slots || slots.length === 0) return false;
  return activeAt({ startsAt: EXPECTED_RESTART_SERIES_START, endsAt: OPEN_ENDED, recurrence: slots }, at);
}
