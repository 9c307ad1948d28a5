// Notification channels and the outbox of deliveries: written by ingest in the commit of a state change, claimed by the dispatcher.
import type { Selectable } from 'kysely';
import type { Delivery, NotificationChannel } from '../../domain/notification.js';
import { createdInOrder, type DeliveryClaimer } from '../notification-statements.js';
import type { DeliveryQuery, NotificationRepository } from '../store.js';
import type { Db, NotificationChannelsTable, NotificationDeliveriesTable } from '../tables.js';

const toChannel = (r: Selectable<NotificationChannelsTable>): NotificationChannel => ({
  id: r.id,
  organizationId: r.organization_id,
  key: r.key,
  name: r.name,
  type: r.type,
  config: JSON.parse(r.config) as Record<string, unknown>,
  rules: JSON.parse(r.rules) as NotificationChannel['rules'],
  enabled: r.enabled === 1,
  managedBy: r.managed_by,
  createdAt: r.created_at,
  updatedAt: r.updated_at,
});

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

export function notificationRepository(db: Db, claim: DeliveryClaimer): NotificationRepository {
  const channels = () => db.selectFrom('notification_channels').selectAll();
  const ofMonitor = (q: DeliveryQuery) =>
    db
      .selectFrom('notification_deliveries')
      .where('channel_id', '=', q.channelId)
      .where('monitor_id', '=', q.monitorId)
      .where('kind', 'in', q.kinds.length > 0 ? [...q.kinds] : ['']);
  return {
    async listChannels(organizationId) {
      return (await channels().where('organization_id', '=', organizationId).orderBy('key').execute()).map(toChannel);
    },
    async listEnabledChannels(organizationId) {
      return (await channels().where('organization_id', '=', organizationId).where('enabled', '=', 1).orderBy('key').execute()).map(toChannel);
    },
    async findChannel(id) {
      const row = await channels().where('id', '=', id).executeTakeFirst();
      return row && toChannel(row);
    },
    async findChannelByKey(organizationId, key) {
      const row = await channels().where('organization_id', '=', organizationId).where('key', '=', key).executeTakeFirst();
      return row && toChannel(row);
    },
    async insertChannel(channel, now) {
      await db
        .insertInto('notification_channels')
        .values({
          id: channel.id,
          organization_id: channel.organizationId,
          key: channel.key,
          name: channel.name,
          type: channel.type,
          config: JSON.stringify(channel.config),
          rules: JSON.stringify(channel.rules),
          enabled: channel.enabled ? 1 : 0,
          managed_by: channel.managedBy,
          created_at: now,
          updated_at: now,
        })
        .execute();
    },
    async updateChannel(id, spec, managedBy, now) {
      await db
        .updateTable('notification_channels')
        .set({
          key: spec.key,
          name: spec.name,
          type: spec.type,
          config: JSON.stringify(spec.config),
          rules: JSON.stringify(spec.rules),
          enabled: spec.enabled ? 1 : 0,
          managed_by: managedBy,
          updated_at: now,
        })
        .where('id', '=', id)
        .execute();
    },
    async deleteChannel(id) {
      await db.deleteFrom('notification_channels').where('id', '=', id).execute();
    },
    async enqueue(rows, now) {
      let added = 0;
      for (let i = 0; i < rows.length; i += ROWS_PER_INSERT) {
        const values = rows.slice(i, i + ROWS_PER_INSERT).map((r) => ({
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
        }));
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
        .set({ status: 'sent', sent_at: sentAt, claimed_until: null, last_error: null, last_status: status, last_answer: answer })
        .where('id', '=', id)
        .where('status', '=', 'sending')
        .execute();
    },
    async markRetry(id, nextAt, error, status, answer) {
      await db
        .updateTable('notification_deliveries')
        .set({ status: 'pending', next_attempt_at: nextAt, claimed_until: null, last_error: error, last_status: status, last_answer: answer })
        .where('id', '=', id)
        .where('status', '=', 'sending')
        .execute();
    },
    async releaseClaims(ids, now) {
      let released = 0;
      for (let i = 0; i < ids.length; i += ROWS_PER_INSERT) {
        const result = await db
          .updateTable('notification_deliveries')
          .set((eb) => ({ status: 'pending', next_attempt_at: now, claimed_until: null, attempts: eb('attempts', '-', 1) }))
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
    async recordDelivery(d) {
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
    async listDeliveries(channelId, limit) {
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
    async deliveryStats({ channelId, monitorId, kinds, since }) {
      const row = await ofMonitor({ channelId, monitorId, kinds })
        .select((eb) => [eb.fn.countAll<number>().as('n'), eb.fn.min('created_at').as('first'), eb.fn.max('created_at').as('last')])
        .where('created_at', '>=', since)
        .executeTakeFirstOrThrow();
      const time = (v: unknown) => (v === null || v === undefined ? null : Number(v));
      return { count: Number(row.n), first: time(row.first), last: time(row.last) };
    },
    async lastDelivery({ before, ...query }) {
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
    async pruneDeliveries(before, batch) {
      // In batches, like the checks: short transactions leave room for the dispatcher's writes in between.
      const result = await db
        .deleteFrom('notification_deliveries')
        .where('id', 'in', (eb) =>
          eb.selectFrom('notification_deliveries').select('id').where('status', 'in', ['sent', 'dead']).where('created_at', '<', before).limit(batch),
        )
        .executeTakeFirst();
      return Number(result.numDeletedRows);
    },
  };
}
