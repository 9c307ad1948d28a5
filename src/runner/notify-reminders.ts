// The reminders' timer: every 15 s, a pass of notify/outbox/reminders.ts (a monitor still down, a flap that calmed
// down). In cluster mode only the holder of the reminders' lease sweeps.
import { createReminderPass } from '../notify/outbox/reminders.js';
import { createTimer, type PeriodicSweep, type TimerDeps } from './periodic.js';

export const REMINDERS_EVERY_MS = 15_000;

/** sweep() is one pass; it returns how many deliveries it enqueued. */
export type NotifyReminders = PeriodicSweep<number>;

export function createNotifyReminders(deps: TimerDeps & Parameters<typeof createReminderPass>[0]): NotifyReminders {
  return createTimer(createReminderPass(deps), deps, {
    everyMs: REMINDERS_EVERY_MS,
    failure: 'notification reminders failed',
  });
}
