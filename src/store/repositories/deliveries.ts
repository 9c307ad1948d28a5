// The notification outbox (store.deliveries): the queue of deliveries, written in the transaction of the change that
// calls for them (notify/outbox), claimed, acknowledged, retried and given up by the dispatcher (notify/dispatch), read
// back by the delivery log and the timing rules, pruned by retention. Its contract suite:
// test/contracts/store-deliveries.contract.test.ts.
import type { Updateable } from 'kysely';
import type { Delivery, NewDelivery } from '../../domain/notification.js';
import type { DeliveryClaimer } from '../notification-statements.js';
import type { Db, NotificationDeliveriesTable } from '../tables.js';
import { DELIVERY_FIELDS, deliveryHistory, type HistoryMethods, toDelivery } from './delivery-history.js';
import { toColumns } from './rows.js';

/** A channel's deliveries of some kinds about one monitor: what the timing rules count and look back on. */
export interface DeliveryQuery {
  channelId: string;
  monitorId: string;
  kinds: readonly string[];
}

export interface DeliveryRepository {
  /** Inserts pending deliveries; one already there for the same (event, channel) is left as it is. Returns how many were new. */
  enqueue(rows: readonly NewDelivery[], now: number): Promise<number>;
  /**
   * Atomically takes up to `limit` due deliveries — pending ones whose `nextAttemptAt` has come, and sending ones whose
   * claim lapsed (a crashed sender's) — marks them sending until `now + leaseMs` and counts the attempt. Two processes
   * never take the same row (PostgreSQL: FOR UPDATE SKIP LOCKED; SQLite: one write statement). A delivery waits while an
   * earlier one of the same channel and monitor is pending or sending, so each receiver gets a monitor's events in order.
   * Oldest first. Deliveries to `skipChannelIds` are left for a later claim.
   */
  claimDue(now: number, limit: number, leaseMs: number, skipChannelIds?: readonly string[]): Promise<Delivery[]>;
  /** Inserts a delivery already attempted (a channel test, sent at once): kept in the log like the outbox's own. */
  record(delivery: Delivery): Promise<void>;
  /** Acknowledges a claimed delivery as sent. */
  markSent(id: string, sentAt: number, status: number | null, answer: string | null): Promise<void>;
  /** Releases a claimed delivery to be tried again at `nextAt`, with what this attempt came to. */
  markRetry(id: string, nextAt: number, error: string, status: number | null, answer: string | null): Promise<void>;
  /**
   * Hands claimed deliveries back unsent (a graceful shutdown whose sends did not finish, or a channel paused by a 429
   * until `at`): pending again, due at `at`, the claim cleared and the attempt not counted. Only rows still sending are
   * touched; returns how many were released.
   */
  releaseClaims(ids: readonly string[], at: number): Promise<number>;
  /**
   * Makes a channel's deliveries waiting for a retry due at `now` (a send to it just went through after failing: the
   * receiver is back, so the others need not sit out their backoff). Returns how many.
   */
  retryChannelNow(channelId: string, now: number): Promise<number>;
  /** Settles a claimed (or pending) delivery unsent because a rule no longer wants it: `skipped`, with the reason. */
  markSkipped(id: string, reason: string): Promise<void>;
  /** Gives a claimed (or pending) delivery up, keeping the answer. */
  markDead(id: string, error: string, status: number | null, answer: string | null): Promise<void>;
  /** A channel's deliveries, newest first. */
  listByChannel(channelId: string, limit: number): Promise<Delivery[]>;
  /** How many of a channel's deliveries of these kinds about a monitor were created since `since` (any status), and when the first and last were. */
  stats(
    query: DeliveryQuery & { since: number },
  ): Promise<{ count: number; first: number | null; last: number | null }>;
  /** The latest of a channel's deliveries of these kinds about a monitor (created before `before`, when given). */
  last(
    query: DeliveryQuery & { before?: Pick<Delivery, 'createdAt' | 'id'> | undefined },
  ): Promise<Delivery | undefined>;
  /** A channel's latest delivery of these kinds per monitor. */
  latestPerMonitor(channelId: string, kinds: readonly string[]): Promise<Delivery[]>;
  /** Deletes up to `batch` sent and dead deliveries created before `before` (never pending or sending ones); returns how many went. */
  prune(before: number, batch: number): Promise<number>;
}

/** Rows per insert: well under both dialects' parameter limits (16 columns each). */
const ROWS_PER_INSERT = 200;

export function deliveryRepository(db: Db, claim: DeliveryClaimer): DeliveryRepository {
  return { ...deliveryQueue(db, claim), ...deliveryHistory(db) };
}

/** The queue: rows enqueued, claimed when due, and marked with each attempt's outcome. */
function deliveryQueue(db: Db, claim: DeliveryClaimer): Omit<DeliveryRepository, HistoryMethods> {
  /** Records an attempt's outcome on a delivery still in one of `from` (a claim another process took over is left). */
  const settle = async (
    id: string,
    from: readonly Delivery['status'][],
    outcome: Updateable<NotificationDeliveriesTable>,
  ) => {
    await db
      .updateTable('notification_deliveries')
      .set(outcome)
      .where('id', '=', id)
      .where('status', 'in', from)
      .execute();
  };
  return {
    async enqueue(rows, now) {
      let added = 0;
      for (let i = 0; i < rows.length; i += ROWS_PER_INSERT) {
        const values = rows.slice(i, i + ROWS_PER_INSERT).map((r) => newRow(r, now));
        const inserted = await db
          .insertInto('notification_deliveries')
          .values(values)
          // No conflict target: a channel's row meets the (event, channel) index, a subscriber's the (event, subscriber)
          // one (NULLs never clash), and one statement may hold both kinds.
          .onConflict((oc) => oc.doNothing())
          .returning('id')
          .execute();
        added += inserted.length;
      }
      return added;
    },
    async claimDue(now, limit, leaseMs, skipChannelIds) {
      return (await claim(db, now, limit, leaseMs, skipChannelIds)).map(toDelivery);
    },
    async markSent(id, sentAt, status, answer) {
      await settle(id, ['sending'], {
        status: 'sent',
        sent_at: sentAt,
        claimed_until: null,
        last_error: null,
        last_status: status,
        last_answer: answer,
      });
    },
    async markRetry(id, nextAt, error, status, answer) {
      await settle(id, ['sending'], {
        status: 'pending',
        next_attempt_at: nextAt,
        claimed_until: null,
        last_error: error,
        last_status: status,
        last_answer: answer,
      });
    },
    async releaseClaims(ids, now) {
      let released = 0;
      for (let i = 0; i < ids.length; i += ROWS_PER_INSERT) {
        const result = await db
          .updateTable('notification_deliveries')
          .set((eb) => ({
            status: 'pending',
            next_attempt_at: now,
            claimed_until: null,
            attempts: eb('attempts', '-', 1),
          }))
          .where('id', 'in', ids.slice(i, i + ROWS_PER_INSERT))
          .where('status', '=', 'sending')
          .executeTakeFirst();
        released += Number(result.numUpdatedRows);
      }
      return released;
    },
    async retryChannelNow(channelId, now) {
      const result = await db
        .updateTable('notification_deliveries')
        .set({ next_attempt_at: now })
        .where('channel_id', '=', channelId)
        .where('status', '=', 'pending')
        .where('next_attempt_at', '>', now)
        .where('attempts', '>', 0)
        .executeTakeFirst();
      return Number(result.numUpdatedRows);
    },
    async markSkipped(id, reason) {
      await settle(id, ['pending', 'sending'], { status: 'skipped', claimed_until: null, last_error: reason });
    },
    async markDead(id, error, status, answer) {
      await settle(id, ['pending', 'sending'], {
        status: 'dead',
        claimed_until: null,
        last_error: error,
        last_status: status,
        last_answer: answer,
      });
    },
    async record(d) {
      await db.insertInto('notification_deliveries').values(toColumns(d, DELIVERY_FIELDS)).execute();
    },
  };
}

/** A row for a delivery enqueued now: pending (unless it says otherwise), no attempt yet. */
function newRow(r: Parameters<DeliveryRepository['enqueue']>[0][number], now: number) {
  return {
    ...toColumns(r, ['id', 'eventId', 'channelId', 'organizationId', 'monitorId', 'kind', 'event', 'nextAttemptAt']),
    subscriber_id: r.subscriberId ?? null,
    status: r.status ?? ('pending' as const),
    attempts: 0,
    claimed_until: null,
    last_error: r.lastError ?? null,
    last_status: null,
    last_answer: null,
    created_at: now,
    sent_at: null,
  };
}
