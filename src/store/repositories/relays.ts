// Relays: remote agents that run monitors inside private networks, known by a hashed token.
import type { Selectable } from 'kysely';
import type { Relay } from '../../domain/organization.js';
import type { RelayRepository } from '../store.js';
import type { Db, RelaysTable } from '../tables.js';
import { countOf } from './count.js';

const toRelay = (r: Selectable<RelaysTable>): Relay => ({
  id: r.id,
  organizationId: r.organization_id,
  key: r.key,
  name: r.name,
  tokenPrefix: r.token_prefix,
  hasToken: r.token_hash !== null,
  lastSeenAt: r.last_seen_at,
  secretsWithheldBefore: r.secrets_withheld_before,
  managedBy: r.managed_by,
  createdAt: r.created_at,
  updatedAt: r.updated_at,
});

export function relayRepository(db: Db): RelayRepository {
  const one = async (column: 'id' | 'token_hash', value: string) => db.selectFrom('relays').selectAll().where(column, '=', value).executeTakeFirst();
  return {
    async list(organizationId) {
      return (await db.selectFrom('relays').selectAll().where('organization_id', '=', organizationId).orderBy('key').execute()).map(toRelay);
    },
    count: (organizationId) => countOf(db.selectFrom('relays').where('organization_id', '=', organizationId)),
    async findById(id) {
      const row = await one('id', id);
      return row && toRelay(row);
    },
    async findByKey(organizationId, key) {
      const row = await db.selectFrom('relays').selectAll().where('organization_id', '=', organizationId).where('key', '=', key).executeTakeFirst();
      return row && toRelay(row);
    },
    async findByTokenHash(hash) {
      const row = await one('token_hash', hash);
      return row && { ...toRelay(row), tokenHash: row.token_hash as string, offlineSince: row.offline_since };
    },
    async insert(relay, now) {
      await db
        .insertInto('relays')
        .values({
          id: relay.id,
          organization_id: relay.organizationId,
          key: relay.key,
          name: relay.name,
          token_hash: null,
          token_prefix: null,
          last_seen_at: null,
          secrets_withheld_before: null,
          managed_by: relay.managedBy,
          created_at: now,
          updated_at: now,
        })
        .execute();
    },
    async update(id, changes, now) {
      await db
        .updateTable('relays')
        .set({
          ...(changes.name !== undefined ? { name: changes.name } : {}),
          ...(changes.managedBy !== undefined ? { managed_by: changes.managedBy } : {}),
          updated_at: now,
        })
        .where('id', '=', id)
        .execute();
    },
    async setToken(id, token, now) {
      await db
        .updateTable('relays')
        .set({ token_hash: token?.hash ?? null, token_prefix: token?.prefix ?? null, updated_at: now })
        .where('id', '=', id)
        .execute();
    },
    async withholdSecrets(id, before) {
      await db.updateTable('relays').set({ secrets_withheld_before: before }).where('id', '=', id).execute();
    },
    async touch(id, now) {
      await db.updateTable('relays').set({ last_seen_at: now }).where('id', '=', id).execute();
    },
    async markOffline(id, lastSeenAt, now) {
      const result = await db
        .updateTable('relays')
        .set({ offline_since: now })
        .where('id', '=', id)
        .where('offline_since', 'is', null)
        .where('last_seen_at', '=', lastSeenAt)
        .executeTakeFirst();
      return Number(result.numUpdatedRows) > 0;
    },
    async markBack(id, offlineSince, now) {
      const result = await db
        .updateTable('relays')
        .set({ offline_since: null, last_seen_at: now })
        .where('id', '=', id)
        .where('offline_since', '=', offlineSince)
        .executeTakeFirst();
      return Number(result.numUpdatedRows) > 0;
    },
    async delete(id) {
      await db.deleteFrom('relays').where('id', '=', id).execute();
    },
    async listActivity() {
      const rows = await db
        .selectFrom('relays')
        .innerJoin('monitors', 'monitors.relay_id', 'relays.id')
        .select(['relays.id', 'relays.last_seen_at', 'relays.offline_since', (eb) => eb.fn.min<number>('monitors.interval_sec').as('shortest')])
        .where('monitors.enabled', '=', 1)
        .where('monitors.run_on', '=', 'relay')
        .groupBy(['relays.id', 'relays.last_seen_at', 'relays.offline_since'])
        .execute();
      return rows.map((r) => ({ id: r.id, lastSeenAt: r.last_seen_at, offlineSince: r.offline_since, shortestIntervalSec: Number(r.shortest) }));
    },
  };
}
