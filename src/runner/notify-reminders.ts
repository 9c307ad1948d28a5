// The reminders' timer: every 15 s, a pass of notify/outbox/reminders.ts (a monitor still down, a flap that calmed
// down). In cluster mode only the holder of the reminders' lease sweeps.
import type { Clock } from '../domain/clock.js';
import type { Logger } from '../logger.js';
import type { NotificationPublisher } from '../notify/outbox/outbox.js';
import { createReminderPass } from '../notify/outbox/reminders.js';
import type { Store } from '../store/index.js';
import { createPeriodicSweep, type SweepGate } from './periodic.js';

export const REMINDERS_EVERY_MS = 15_000;

export interface NotifyReminders {
  /** One pass; returns how many deliveries it enqueued. Exposed for tests with an injected clock. */
  sweep(): Promise<number>;
  start(): void;
  stop(): Promise<void>;
}

export function createNotifyReminders(deps: {
  store: Store;
  notify?: NotificationPublisher | undefined;
  clock: Clock;
  logger: Logger;
  everyMs?: number;
  /** Cluster mode: sweeps only while this instance holds the reminders' lease. */
  gate?: SweepGate | undefined;
}): NotifyReminders {
  const pass = createReminderPass(deps);
  return createPeriodicSweep(pass, {
    everyMs: deps.everyMs ?? REMINDERS_EVERY_MS,
    logger: deps.logger,
    failure: 'notification reminders failed',
    gate: deps.gate,
  });
}
