// Notification channels (store.channels): what the API, the CLI and warden.yaml edit (their config, rules and
// recipients' channel), and what the outbox reads to choose where an event goes. Deleting a channel deletes its
// deliveries (foreign key). The delivery queue is store.deliveries (deliveries.ts). Its contract suite:
// test/contracts/store-channels.contract.test.ts.
import type { Selectable } from 'kysely';
import type { NotificationChannel, NotificationChannelSpec } from '../../domain/notification.js';
import type { ManagedBy } from '../../domain/ownership.js';
import type { Db, NotificationChannelsTable } from '../tables.js';
import { deleteWhere, findOne, mapped, updateWhere } from './query.js';
import { fromColumns, toColumns } from './rows.js';

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
  ...fromColumns(r, ['id', 'organizationId', 'key', 'name', 'type']),
  config: JSON.parse(r.config) as Record<string, unknown>,
  rules: JSON.parse(r.rules) as NotificationChannel['rules'],
  enabled: r.enabled === 1,
  ...fromColumns(r, ['managedBy', 'createdAt', 'updatedAt']),
});

const specColumns = (spec: NotificationChannelSpec) => ({
  ...toColumns(spec, ['key', 'name', 'type']),
  config: JSON.stringify(spec.config),
  rules: JSON.stringify(spec.rules),
  enabled: spec.enabled ? 1 : 0,
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
    findById: async (id) => mapped(await findOne(db, 'notification_channels', { id }), toChannel),
    findByKey: async (organizationId, key) =>
      mapped(await findOne(db, 'notification_channels', { organization_id: organizationId, key }), toChannel),
    async insert(channel, now) {
      await db
        .insertInto('notification_channels')
        .values({
          ...toColumns(channel, ['id', 'organizationId']),
          ...specColumns(channel),
          managed_by: channel.managedBy,
          created_at: now,
          updated_at: now,
        })
        .execute();
    },
    async update(id, spec, managedBy, now) {
      const changes = { ...specColumns(spec), managed_by: managedBy, updated_at: now };
      await updateWhere(db, 'notification_channels', { id }, changes);
    },
    async delete(id) {
      await deleteWhere(db, 'notification_channels', { id });
    },
  };
}
