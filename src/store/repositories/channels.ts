// Notification channels (store.channels): what the API, the CLI and warden.yaml edit (their config, rules and
// recipients' channel), and what the outbox reads to choose where an event goes. Deleting a channel deletes its
// deliveries (foreign key). The delivery queue is store.deliveries (deliveries.ts). Its contract suite:
// test/contracts/store-channels.contract.test.ts.
import type { Selectable } from 'kysely';
import type { NotificationChannel, NotificationChannelSpec } from '../../domain/notification.js';
import type { ManagedBy } from '../../domain/ownership.js';
import type { Db, NotificationChannelsTable } from '../tables.js';

export interface ChannelRepository {
  /** An organization's channels by key. */
  list(organizationId: string): Promise<NotificationChannel[]>;
  /** The enabled ones: what ingest enqueues deliveries for. */
  listEnabled(organizationId: string): Promise<NotificationChannel[]>;
  findById(id: string): Promise<NotificationChannel | undefined>;
  findByKey(organizationId: string, key: string): Promise<NotificationChannel | undefined>;
  insert(
    channel: NotificationChannelSpec & { id: string; organizationId: string; managedBy: ManagedBy },
    now: number,
  ): Promise<void>;
  update(id: string, spec: NotificationChannelSpec, managedBy: ManagedBy, now: number): Promise<void>;
  /** Deletes the channel and its deliveries. */
  delete(id: string): Promise<void>;
}

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

export function channelRepository(db: Db): ChannelRepository {
  const channels = () => db.selectFrom('notification_channels').selectAll();
  return {
    async list(organizationId) {
      return (await channels().where('organization_id', '=', organizationId).orderBy('key').execute()).map(toChannel);
    },
    async listEnabled(organizationId) {
      return (
        await channels().where('organization_id', '=', organizationId).where('enabled', '=', 1).orderBy('key').execute()
      ).map(toChannel);
    },
    async findById(id) {
      const row = await channels().where('id', '=', id).executeTakeFirst();
      return row && toChannel(row);
    },
    async findByKey(organizationId, key) {
      const row = await channels()
        .where('organization_id', '=', organizationId)
        .where('key', '=', key)
        .executeTakeFirst();
      return row && toChannel(row);
    },
    async insert(channel, now) {
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
    async update(id, spec, managedBy, now) {
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
    async delete(id) {
      await db.deleteFrom('notification_channels').where('id', '=', id).execute();
    },
  };
}
