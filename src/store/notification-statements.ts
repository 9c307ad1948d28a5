// The claim of due notification deliveries, built once for both dialects: one UPDATE … WHERE id IN (SELECT … LIMIT n)
// RETURNING, atomic on its own; PostgreSQL adds FOR UPDATE SKIP LOCKED to the inner select (dialects/postgres/).
import type { ExpressionBuilder, Selectable } from 'kysely';
import type { Database, Db, NotificationDeliveriesTable } from './tables.js';

type DeliveryRows = ExpressionBuilder<{ d: NotificationDeliveriesTable; e: NotificationDeliveriesTable }, 'd' | 'e'>;

/** `a` was created before (`<`) or after (`>`) `b`, ties broken by id: the outbox's order between two delivery rows. */
export function createdInOrder(eb: DeliveryRows, a: 'd' | 'e', op: '<' | '>', b: 'd' | 'e') {
  return eb.or([
    eb(`${a}.created_at`, op, eb.ref(`${b}.created_at`)),
    eb.and([eb(`${a}.created_at`, '=', eb.ref(`${b}.created_at`)), eb(`${a}.id`, op, eb.ref(`${b}.id`))]),
  ]);
}

type Shared = 'channel_id' | 'monitor_id' | 'subscriber_id';

/**
 * No delivery `e` other than `d` exists that shares `d`'s values in `same`, has its `column` among `values`, and was
 * created before (`<`) or after (`>`) `d`.
 *
 * A delivery without a monitor (maintenance, incidents) shares its channel's lane of monitor-less events, as the
 * dispatcher's lanes have it: a NULL `monitor_id` matches a NULL one. That is a second test of its own (`is null`)
 * rather than `is not distinct from`, which PostgreSQL cannot answer from the lane index (a hash join over the
 * channel's rows instead of a seek). The channel and the subscriber must be equal: a channel's rows have no subscriber,
 * a subscriber's no channel, and neither holds the other's back.
 */
export const noDeliveryAround =
  (same: readonly Shared[], column: 'status' | 'kind', values: readonly string[], op: '<' | '>') =>
  (eb: ExpressionBuilder<Database & { d: NotificationDeliveriesTable }, 'd'>) => {
    const none = (noMonitor: boolean) => {
      let others = eb.selectFrom('notification_deliveries as e').select('e.id');
      for (const c of same)
        others =
          c === 'monitor_id' && noMonitor
            ? others.where('e.monitor_id', 'is', null)
            : others.whereRef(`e.${c}`, '=', `d.${c}`);
      // biome-ignore lint/suspicious/noExplicitAny: `status` and `kind` hold different unions; both compare as text.
      const matching = others.where(`e.${column}`, 'in', values as any[]);
      return eb.not(eb.exists(matching.where((inner) => createdInOrder(inner, 'e', op, 'd'))));
    };
    if (!same.includes('monitor_id')) return none(false);
    return eb.and([none(false), eb.or([eb('d.monitor_id', 'is not', null), none(true)])]);
  };

export type DeliveryClaimer = (
  db: Db,
  now: number,
  limit: number,
  leaseMs: number,
  skipChannelIds?: readonly string[],
) => Promise<Selectable<NotificationDeliveriesTable>[]>;

/**
 * The claim; `skipLocked` makes concurrent claimers pass over each other's rows instead of waiting for them, and
 * `skipChannelIds` leaves out channels the claimer has enough of already (a slow one's backlog does not crowd out the rest).
 */
export async function claimDueDeliveries(
  db: Db,
  now: number,
  limit: number,
  leaseMs: number,
  skipLocked: boolean,
  skipChannelIds: readonly string[] = [],
): Promise<Selectable<NotificationDeliveriesTable>[]> {
  let due = db
    .selectFrom('notification_deliveries as d')
    .select('d.id')
    .where((eb) =>
      eb.or([
        eb.and([eb('d.status', '=', 'pending'), eb('d.next_attempt_at', '<=', now)]),
        eb.and([eb('d.status', '=', 'sending'), eb('d.claimed_until', '<=', now)]),
      ]),
    )
    // In order per channel and monitor: nothing while an earlier delivery of the pair still waits or is being sent.
    .where(noDeliveryAround(['channel_id', 'monitor_id'], 'status', ['pending', 'sending'], '<'))
    // A page subscriber gets its events in order too (a channel's rows have no subscriber: this never holds them back).
    .where(noDeliveryAround(['subscriber_id'], 'status', ['pending', 'sending'], '<'))
    .$if(skipChannelIds.length > 0, (q) =>
      q.where((eb) => eb.or([eb('d.channel_id', 'is', null), eb('d.channel_id', 'not in', skipChannelIds)])),
    )
    .orderBy('d.next_attempt_at')
    .orderBy('d.created_at')
    .orderBy('d.id')
    .limit(limit);
  if (skipLocked) due = due.forUpdate().skipLocked();
  const rows = await db
    .updateTable('notification_deliveries')
    .set((eb) => ({ status: 'sending', claimed_until: now + leaseMs, attempts: eb('attempts', '+', 1) }))
    .where('id', 'in', due)
    .returningAll()
    .execute();
  return rows.sort((a, b) => a.created_at - b.created_at || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
}
