// The maintenance notices' timer: every 15 s, a pass of notify/outbox/maintenance.ts (windows starting and ending).
// In cluster mode only the holder of the maintenance notices' lease sweeps.
import { createMaintenancePass } from '../notify/outbox/maintenance.js';
import { createTimer, type PeriodicSweep, type TimerDeps } from './periodic.js';

export const MAINTENANCE_NOTICES_EVERY_MS = 15_000;

/** sweep() is one pass; it returns how many notices it published. */
export type MaintenanceNotices = PeriodicSweep<number>;

export function createMaintenanceNotices(
  deps: TimerDeps & Parameters<typeof createMaintenancePass>[0],
): MaintenanceNotices {
  return createTimer(createMaintenancePass(deps), deps, {
    everyMs: MAINTENANCE_NOTICES_EVERY_MS,
    failure: 'maintenance notices failed',
  });
}
