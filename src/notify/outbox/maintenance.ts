// Tells maintenance windows starting and ending: each window whose start (or end) came and was not told yet gets its
// notice, published in the transaction that records it told. The record is conditional (`… is null`) and the event ids
// stable, so several processes, or a pass after a crash, tell each window once. A recurring window is told once per
// occurrence. A quiet window (`announce` off) is told to no one. runner/maintenance-notices.ts runs it.
import type { Clock } from '../../domain/clock.js';
import type { Maintenance } from '../../domain/incident.js';
import { lastEndedOccurrence, MAX_DURATION_MIN, type Occurrence, occurrenceAt } from '../../domain/recurrence.js';
import type { MaintenanceNoticeDue, RecurringNoticeDue, Store } from '../../store/index.js';
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
      return publish(tx, window, items, now);
    });
  }

  /**
   * Publishes what a window told. A quiet window (`announce` off) publishes nothing: its notices are recorded told all
   * the same, so turning it on later tells no occurrence that already began.
   */
  async function publish(
    tx: Store,
    window: Maintenance,
    items: OutboxItem[],
    now: number,
  ): Promise<{ told: number; enqueued: number }> {
    if (!window.announce || items.length === 0) return { told: 0, enqueued: 0 };
    return { told: items.length, enqueued: deps.notify ? await deps.notify.publish(tx, items, now) : 0 };
  }

  /**
   * A recurring window: the latest occurrence that ended (its start too, if that was never told and it ended within the
   * catch-up), then the one in progress. The store records the start of the latest occurrence told, conditionally, and
   * the event ids name the occurrence, so each occurrence is told once across processes and passes.
   */
  async function tellRecurring(due: RecurringNoticeDue, now: number): Promise<{ told: number; enqueued: number }> {
    const notices = recurringNotices(due, now);
    if (notices.length === 0) return { told: 0, enqueued: 0 };
    return deps.store.transaction(async (tx) => {
      const items: OutboxItem[] = [];
      for (const { notice, occurrence } of notices)
        if (await tx.maintenance.markOccurrence(due.window.id, notice, occurrence.startsAt))
          items.push(maintenanceItem(due.organizationId, { ...due.window, ...occurrence }, `maintenance.${notice}`));
      return publish(tx, due.window, items, now);
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
    // Every recurring window, a batch at a time: one whose occurrence is due may sort after any number that are not.
    let afterId: string | undefined;
    for (;;) {
      const batch = await deps.store.maintenance.listRecurringDue(
        now,
        now - MAINTENANCE_CATCH_UP_MS,
        MAINTENANCE_NOTICES_BATCH,
        afterId,
      );
      for (const due of batch) {
        const outcome = await tellRecurring(due, now);
        told += outcome.told;
        enqueued += outcome.enqueued;
      }
      if (batch.length < MAINTENANCE_NOTICES_BATCH) break;
      afterId = batch[batch.length - 1]?.window.id;
    }
    if (enqueued > 0) deps.notify?.committed();
    return told;
  };
}

/**
 * What a recurring window may have to tell at `now`, in order: the latest occurrence that ended (its start too, if that
 * was never told and it ended within the catch-up), then the start of the one in progress. The store records the start
 * of the latest occurrence told, conditionally, and the event ids name the occurrence, so each occurrence is told once
 * across processes and passes.
 */
function recurringNotices(
  due: RecurringNoticeDue,
  now: number,
): { notice: 'started' | 'ended'; occurrence: Occurrence }[] {
  const { window, startedOccurrence, endedOccurrence } = due;
  const told = (value: number | null, o: Occurrence) => value !== null && value >= o.startsAt;
  const notices: { notice: 'started' | 'ended'; occurrence: Occurrence }[] = [];
  const ended = lastEndedOccurrence(window, now - MAX_DURATION_MIN * 60_000 - MAINTENANCE_CATCH_UP_MS, now);
  const recent = ended !== null && ended.endsAt >= now - MAINTENANCE_CATCH_UP_MS;
  // An older occurrence's end is told only if its own start was (a later start says nothing of it).
  if (ended && (recent || startedOccurrence === ended.startsAt)) {
    if (!told(startedOccurrence, ended)) notices.push({ notice: 'started', occurrence: ended });
    if (!told(endedOccurrence, ended)) notices.push({ notice: 'ended', occurrence: ended });
  }
  const current = occurrenceAt(window, now);
  if (current && !told(startedOccurrence, current)) notices.push({ notice: 'started', occurrence: current });
  return notices;
}
