// Tells maintenance windows starting and ending: every 15 s, each window whose start (or end) came and was not told yet
// gets its notice, published in the transaction that records it told. The record is conditional (`… is null`) and the
// event ids stable, so several processes, or a sweep after a crash, tell each window once.
import type { Clock } from '../domain/clock.js';
import type { Maintenance } from '../domain/incident.js';
import { stableEventId } from '../domain/notification.js';
import type { Logger } from '../logger.js';
import type { MaintenanceNoticeDue, Store } from '../store/index.js';
import type { NotificationPublisher, OutboxItem } from './notify-outbox.js';
import { createPeriodicSweep, type SweepGate } from './periodic.js';

export const MAINTENANCE_NOTICES_EVERY_MS = 15_000;
/**
 * A window that started and ended while no server ran (its start never told) gets its notices only if it ended this
 * recently; an older one is history, not news.
 */
export const MAINTENANCE_CATCH_UP_MS = 3_600_000;
/** Windows handled per sweep at most; the rest wait for the next. */
export const MAINTENANCE_NOTICES_BATCH = 200;

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

  async function tell(due: MaintenanceNoticeDue, now: number): Promise<{ told: number; enqueued: number }> {
    return deps.store.transaction(async (tx) => {
      const items: OutboxItem[] = [];
      const { window } = due;
      if (due.startedNoticeAt === null && (await tx.maintenance.markNotice(window.id, 'started', now))) items.push(noticeOf(due, 'maintenance.started'));
      if (window.endsAt <= now && (await tx.maintenance.markNotice(window.id, 'ended', now))) items.push(noticeOf(due, 'maintenance.ended'));
      const enqueued = deps.notify && items.length > 0 ? await deps.notify.publish(tx, items, now) : 0;
      return { told: items.length, enqueued };
    });
  }

  async function pass(): Promise<number> {
    const now = deps.clock.now();
    let told = 0;
    let enqueued = 0;
    for (const due of await deps.store.maintenance.listNoticesDue(now, now - MAINTENANCE_CATCH_UP_MS, MAINTENANCE_NOTICES_BATCH)) {
      const outcome = await tell(due, now);
      told += outcome.told;
      enqueued += outcome.enqueued;
    }
    if (enqueued > 0) deps.notify?.committed();
    return told;
  }

  return createPeriodicSweep(pass, { everyMs: deps.everyMs ?? MAINTENANCE_NOTICES_EVERY_MS, logger: deps.logger, failure: 'maintenance notices failed', gate: deps.gate });
}

function noticeOf(due: MaintenanceNoticeDue, kind: 'maintenance.started' | 'maintenance.ended'): OutboxItem {
  const { window } = due;
  const started = kind === 'maintenance.started';
  return {
    organizationId: due.organizationId,
    subject: { monitorId: null, pageIds: [window.pageId] },
    event: {
      // Per window and time: a window moved to another time is another notice.
      id: stableEventId(window.id, started ? window.startsAt : window.endsAt, kind),
      kind,
      at: started ? window.startsAt : window.endsAt,
      severity: started ? 'info' : 'ok',
      title: `${started ? 'Maintenance started' : 'Maintenance ended'}: ${window.title}`,
      reason: window.description,
      maintenance: maintenanceFacts(window),
    },
  };
}

function maintenanceFacts(window: Maintenance): { id: string; title: string; startsAt: number; endsAt: number } {
  return { id: window.id, title: window.title, startsAt: window.startsAt, endsAt: window.endsAt };
}
