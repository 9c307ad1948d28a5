// Tells maintenance windows starting and ending: each window whose start (or end) came and was not told yet gets its
// notice, published in the transaction that records it told. The record is conditional (`… is null`) and the event ids
// stable, so several processes, or a pass after a crash, tell each window once. runner/maintenance-notices.ts runs it.
import type { Clock } from '../../domain/clock.js';
import type { MaintenanceNoticeDue, Store } from '../../store/index.js';
import type { OutboxItem } from '../events/item.js';
import { maintenanceItem } from '../events/maintenance.js';
import type { NotificationPublisher } from './outbox.js';

/**
 * A window that started and ended while no server ran (its start never told) gets its notices only if it ended this
 * recently; an older one is history, not news.
 */
export const MAINTENANCE_CATCH_UP_MS = 3_600_000;
/** Windows handled per pass at most; the rest wait for the next. */
export const MAINTENANCE_NOTICES_BATCH = 200;

/** One pass over the windows due; resolves to how many notices it told. */
export function createMaintenancePass(deps: {
  store: Store;
  clock: Clock;
  notify?: NotificationPublisher | undefined;
}): () => Promise<number> {
  async function tell(due: MaintenanceNoticeDue, now: number): Promise<{ told: number; enqueued: number }> {
    return deps.store.transaction(async (tx) => {
      const items: OutboxItem[] = [];
      const { window } = due;
      if (due.startedNoticeAt === null && (await tx.maintenance.markNotice(window.id, 'started', now)))
        items.push(maintenanceItem(due.organizationId, window, 'maintenance.started'));
      if (window.endsAt <= now && (await tx.maintenance.markNotice(window.id, 'ended', now)))
        items.push(maintenanceItem(due.organizationId, window, 'maintenance.ended'));
      const enqueued = deps.notify && items.length > 0 ? await deps.notify.publish(tx, items, now) : 0;
      return { told: items.length, enqueued };
    });
  }

  return async function pass(): Promise<number> {
    const now = deps.clock.now();
    let told = 0;
    let enqueued = 0;
    for (const due of await deps.store.maintenance.listNoticesDue(
      now,
      now - MAINTENANCE_CATCH_UP_MS,
      MAINTENANCE_NOTICES_BATCH,
    )) {
      const outcome = await tell(due, now);
      told += outcome.told;
      enqueued += outcome.enqueued;
    }
    if (enqueued > 0) deps.notify?.committed();
    return told;
  };
}
