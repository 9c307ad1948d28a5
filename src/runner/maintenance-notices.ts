// The maintenance notices' timer: every 15 s, a pass of notify/outbox/maintenance.ts (windows starting and ending).
// In cluster mode only the holder of the maintenance notices' lease sweeps.
import type { Clock } from '../domain/clock.js';
import type { Logger } from '../logger.js';
import { createMaintenancePass } from '../notify/outbox/maintenance.js';
import type { NotificationPublisher } from '../notify/outbox/outbox.js';
import type { Store } from '../store/index.js';
import { createPeriodicSweep, type SweepGate } from './periodic.js';

export const MAINTENANCE_NOTICES_EVERY_MS = 15_000;

export interface MaintenanceNotices {
  /** One pass; returns how many notices it published. Exposed for tests with an injected clock. */
  sweep(): Promise<number>;
  start(): void;
  stop(): Promise<void>;
}

export function createMaintenanceNotices(deps: {
  store: Store;
  clock: Clock;
  logger: Logger;
  notify?: NotificationPublisher | undefined;
  everyMs?: number;
  /** Cluster mode: sweeps only while this instance holds the maintenance notices' lease. */
  gate?: SweepGate | undefined;
}): MaintenanceNotices {
  const pass = createMaintenancePass(deps);
  return createPeriodicSweep(pass, {
    everyMs: deps.everyMs ?? MAINTENANCE_NOTICES_EVERY_MS,
    logger: deps.logger,
    failure: 'maintenance notices failed',
    gate: deps.gate,
  });
}
