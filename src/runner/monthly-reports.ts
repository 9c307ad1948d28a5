// The monthly uptime report's timer: every hour, the pass the composition root hands it
// (services/reports/monthly-report.ts), which mails each organization's report of last month once the 1st came (UTC).
import type { Logger } from '../logger.js';
import { createPeriodicSweep, type PeriodicSweep, type SweepGate } from './periodic.js';

/** Looked at every hour: the 1st's report goes out within the hour after midnight UTC (or after a start). */
const EVERY_MS = 60 * 60 * 1000;
const FIRST_AFTER_MS = 60 * 1000;

export function createMonthlyReports<T>(deps: {
  pass: () => Promise<T>;
  logger: Logger;
  gate?: SweepGate | undefined;
}): PeriodicSweep<T> {
  return createPeriodicSweep(deps.pass, {
    everyMs: EVERY_MS,
    firstAfterMs: FIRST_AFTER_MS,
    logger: deps.logger,
    failure: 'monthly reports failed',
    gate: deps.gate,
  });
}
