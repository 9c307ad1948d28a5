// The outbox's history (store.deliveries): a channel's deliveries, the counts and latest ones the timing rules look back
// on, and pruning by age. Part of the delivery repository (deliveries.ts).
import type { Selectable } from 'kysely';
import type { Delivery } from '../../domain/notification.js';
import { noDeliveryAround } from '../notification-statements.js';
import type { Db, NotificationDeliveriesTable } from '../tables.js';
import type { DeliveryQuery, DeliveryRepository } from './deliveries.js';
import { fromColumns } from './rows.js';

/** A delivery's fields, each the column of the same name in snake_case. */
export const DELIVERY_FIELDS = [
  'id',
  'eventId',
  'channelId',
  'subscriberId',
  'organizationId',
  'monitorId',
  'kind',
  'event',
  'status',
  'attempts',
  'nextAttemptAt',
  'claimedUntil',
  'lastError',
  'lastStatus',
  'lastAnswer',
  'createdAt',
  'sentAt',
] as const satisfies readonly (keyof Delivery)[];

export const toDelivery = (r: Selectable<NotificationDeliveriesTable>): Delivery => fromColumns(r, DELIVERY_FIELDS);

export type HistoryMethods = 'listByChannel' | 'stats' | 'last' | 'latestPerMonitor' | 'prune';

/** What was delivered: a channel's history, counts and the last delivery per monitor, pruned by age. */
export function deliveryHistory(db: Db): Pick<DeliveryRepository, HistoryMethods> {
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
        // The latest per monitor: no later delivery of these kinds for the same channel and monitor.
        .where(noDeliveryAround(['channel_id', 'monitor_id'], 'kind', kinds, '>'))
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
