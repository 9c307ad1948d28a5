// The notification outbox (store.deliveries): the queue of deliveries, written in the transaction of the change that
// calls for them (notify/outbox), claimed, acknowledged, retried and given up by the dispatcher (notify/dispatch), read
// back by the delivery log and the timing rules, pruned by retention. Its contract suite:
// test/contracts/store-deliveries.contract.test.ts.
import type { Selectable } from 'kysely';
import type { Delivery, NewDelivery } from '../../domain/notification.js';
import { createdInOrder, type DeliveryClaimer } from '../notification-statements.js';
import type { Db, NotificationDeliveriesTable } from '../tables.js';

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

const toDelivery = (r: Selectable<NotificationDeliveriesTable>): Delivery => ({
  id: r.id,
  eventId: r.event_id,
  channelId: r.channel_id,
  subscriberId: r.subscriber_id,
  organizationId: r.organization_id,
  monitorId: r.monitor_id,
  kind: r.kind,
  event: r.event,
  status: r.status,
  attempts: r.attempts,
  nextAttemptAt: r.next_attempt_at,
  claimedUntil: r.claimed_until,
  lastError: r.last_error,
  lastStatus: r.last_status,
  lastAnswer: r.last_answer,
  createdAt: r.created_at,
  sentAt: r.sent_at,
});

/** Rows per insert: well under both dialects' parameter limits (16 columns each). */
const ROWS_PER_INSERT = 200;

export function deliveryRepository(db: Db, claim: DeliveryClaimer): DeliveryRepository {
  return { ...deliveryQueue(db, claim), ...deliveryHistory(db) };
}

type HistoryMethods = 'listByChannel' | 'stats' | 'last' | 'latestPerMonitor' | 'prune';

/** The queue: rows enqueued, claimed when due, and marked with each attempt's outcome. */
function deliveryQueue(db: Db, claim: DeliveryClaimer): Omit<DeliveryRepository, HistoryMethods> {
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
      await db
        .updateTable('notification_deliveries')
        .set({
          status: 'sent',
          sent_at: sentAt,
          claimed_until: null,
          last_error: null,
          last_status: status,
          last_answer: answer,
        })
        .where('id', '=', id)
        .where('status', '=', 'sending')
        .execute();
    },
    async markRetry(id, nextAt, error, status, answer) {
      await db
        .updateTable('notification_deliveries')
        .set({
          status: 'pending',
          next_attempt_at: nextAt,
          claimed_until: null,
          last_error: error,
          last_status: status,
          last_answer: answer,
        })
        .where('id', '=', id)
        .where('status', '=', 'sending')
        .execute();
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
      await db
        .updateTable('notification_deliveries')
        .set({ status: 'skipped', claimed_until: null, last_error: reason })
        .where('id', '=', id)
        .where('status', 'in', ['pending', 'sending'])
        .execute();
    },
    async markDead(id, error, status, answer) {
      await db
        .updateTable('notification_deliveries')
        .set({ status: 'dead', claimed_until: null, last_error: error, last_status: status, last_answer: answer })
        .where('id', '=', id)
        .where('status', 'in', ['pending', 'sending'])
        .execute();
    },
    async record(d) {
      await db
        .insertInto('notification_deliveries')
        .values({
          id: d.id,
          event_id: d.eventId,
          channel_id: d.channelId,
          subscriber_id: d.subscriberId,
          organization_id: d.organizationId,
          monitor_id: d.monitorId,
          kind: d.kind,
          event: d.event,
          status: d.status,
          attempts: d.attempts,
          next_attempt_at: d.nextAttemptAt,
          claimed_until: d.claimedUntil,
          last_error: d.lastError,
          last_status: d.lastStatus,
          last_answer: d.lastAnswer,
          created_at: d.createdAt,
          sent_at: d.sentAt,
        })
        .execute();
    },
  };
}

/** What was delivered: a channel's history, counts and the last delivery per monitor, pruned by age. */
function deliveryHistory(db: Db): Pick<DeliveryRepository, HistoryMethods> {
  const ofMonitor = (q: DeliveryQuery) =>
    db
      .selectFrom('notification_deliveries')
      .where('channel_id', '=', q.channelId)
      .where('monitor_id', '=', q.monitorId)
      .where('kind', 'in', q.kinds.length > 0 ? [...q.kinds] : ['']);
  return {
    async listByChannel(channelId, limit) {
      const rows = await db
        .selectFrom('notification_deliveries')
        .selectAll()
        .where('channel_id', '=', channelId)
        .orderBy('created_at', 'desc')
        .orderBy('id', 'desc')
        .limit(limit)
        .execute();
      return rows.map(toDelivery);
    },
    async stats({ channelId, monitorId, kinds, since }) {
      const row = await ofMonitor({ channelId, monitorId, kinds })
        .select((eb) => [
          eb.fn.countAll<number>().as('n'),
          eb.fn.min('created_at').as('first'),
          eb.fn.max('created_at').as('last'),
        ])
        .where('created_at', '>=', since)
        .executeTakeFirstOrThrow();
      const time = (v: unknown) => (v === null || v === undefined ? null : Number(v));
      return { count: Number(row.n), first: time(row.first), last: time(row.last) };
    },
    async last({ before, ...query }) {
      const row = await ofMonitor(query)
        .selectAll()
        .$if(before !== undefined, (q) =>
          q.where((eb) =>
            eb.or([
              eb('created_at', '<', before?.createdAt as number),
              eb.and([eb('created_at', '=', before?.createdAt as number), eb('id', '<', before?.id as string)]),
            ]),
          ),
        )
        .orderBy('created_at', 'desc')
        .orderBy('id', 'desc')
        .limit(1)
        .executeTakeFirst();
      return row && toDelivery(row);
    },
    async latestPerMonitor(channelId, kinds) {
      if (kinds.length === 0) return [];
      const rows = await db
        .selectFrom('notification_deliveries as d')
        .selectAll('d')
        .where('d.channel_id', '=', channelId)
        .where('d.kind', 'in', [...kinds])
        .where('d.monitor_id', 'is not', null)
        .where(({ not, exists, selectFrom }) =>
          not(
            exists(
              selectFrom('notification_deliveries as e')
                .select('e.id')
                .whereRef('e.channel_id', '=', 'd.channel_id')
                .whereRef('e.monitor_id', '=', 'd.monitor_id')
                .where('e.kind', 'in', [...kinds])
                .where((eb) => createdInOrder(eb, 'e', '>', 'd')),
            ),
          ),
        )
        .orderBy('d.monitor_id')
        .execute();
      return rows.map(toDelivery);
    },
    async prune(before, batch) {
      // In batches, like the checks: short transactions leave room for the dispatcher's writes in between.
      const result = await db
        .deleteFrom('notification_deliveries')
        .where('id', 'in', (eb) =>
          eb
            .selectFrom('notification_deliveries')
            .select('id')
            .where('status', 'in', ['sent', 'dead'])
            .where('created_at', '<', before)
            .limit(batch),
        )
        .executeTakeFirst();
      return Number(result.numDeletedRows);
    },
  };
}

/** A row for a delivery enqueued now: pending (unless it says otherwise), no attempt yet. */
function newRow(r: Parameters<DeliveryRepository['enqueue']>[0][number], now: number) {
  return {
    id: r.id,
    event_id: r.eventId,
    channel_id: r.channelId,
    subscriber_id: r.subscriberId ?? null,
    organization_id: r.organizationId,
    monitor_id: r.monitorId,
    kind: r.kind,
    event: r.event,
    status: r.status ?? ('pending' as const),
    attempts: 0,
    next_attempt_at: r.nextAttemptAt,
    claimed_until: null,
    last_error: r.lastError ?? null,
    last_status: null,
    last_answer: null,
    created_at: now,
    sent_at: null,
  };
}
