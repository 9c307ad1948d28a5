// The escalation scan's timer: every 15 s, a pass of notify/outbox/escalation.ts (the steps of unacknowledged alerts
// that came due). Every process may run it: each step is recorded once on its alert, its deliveries have stable ids.
// Its state is in the database, not in timers: a restart picks up where the last pass left off.
import { createEscalationPass } from '../notify/outbox/escalation.js';
import { createTimer, type PeriodicSweep, type TimerDeps } from './periodic.js';

export const ESCALATION_EVERY_MS = 15_000;

/** sweep() is one pass; it returns how many deliveries it enqueued. */
export type EscalationScan = PeriodicSweep<number>;

export function createEscalationScan(deps: TimerDeps & Parameters<typeof createEscalationPass>[0]): EscalationScan {
  return createTimer(createEscalationPass(deps), deps, {
    everyMs: ESCALATION_EVERY_MS,
    failure: 'alert escalation failed',
  });
}
