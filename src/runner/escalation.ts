// The escalation scan's timer: a pass of notify/outbox/escalation.ts (the steps of unacknowledged alerts that came
// due) a second after start, then every 15 s. Every process may run it: each step is recorded once on its alert, its
// deliveries have stable ids. Its state is in the database, not in timers: a restart (after a kill -9 too) picks up
// where the last pass left off, and a step that came due while no process ran goes out at once.
import { createEscalationPass } from '../notify/outbox/escalation.js';
import { createTimer, type PeriodicSweep, type TimerDeps } from './periodic.js';

export const ESCALATION_EVERY_MS = 15_000;
/** The first pass, soon after start: not at once, so that a start's own work (config apply, first checks) goes first. */
export const ESCALATION_FIRST_AFTER_MS = 1_000;

/** sweep() is one pass; it returns how many deliveries it enqueued. */
export type EscalationScan = PeriodicSweep<number>;

export function createEscalationScan(deps: TimerDeps & Parameters<typeof createEscalationPass>[0]): EscalationScan {
  return createTimer(createEscalationPass(deps), deps, {
    everyMs: ESCALATION_EVERY_MS,
    firstAfterMs: ESCALATION_FIRST_AFTER_MS,
    failure: 'alert escalation failed',
  });
}
