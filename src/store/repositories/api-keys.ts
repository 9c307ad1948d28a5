// API keys of an organization: only their SHA-256 hash and a display prefix are kept.
import type { Selectable } from 'kysely';
import type { ApiKey } from '../../domain/organization.js';
import type { ApiKeyRepository } from '../store.js';
import type { ApiKeysTable, Db } from '../tables.js';
import { countOf } from './count.js';

const toApiKey = (r: Omit<Selectable<ApiKeysTable>, 'hash'>): ApiKey => ({
  id: r.id,
  organizationId: r.organization_id,
  name: r.name,
  prefix: r.prefix,
  scope: r.scope,
  createdAt: r.created_at,
  lastUsedAt: r.last_used_at,
  revokedAt: r.revoked_at,
  createdBy: r.created_by,
});

const COLUMNS = ['id', 'organization_id', 'name', 'prefix', 'scope', 'created_at', 'last_used_at', 'revoked_at', 'created_by'] as const;

export function apiKeyRepository(db: Db): ApiKeyRepository {
  return {
    async insert(key) {
      await db
        .insertInto('api_keys')
        .values({
          id: key.id,
          organization_id: key.organizationId,
          name: key.name,
          prefix: key.prefix,
          hash: key.hash,
          scope: key.scope,
          created_at: key.createdAt,
          last_used_at: null,
          revoked_at: null,
          created_by: key.createdBy ?? null,
        })
        .execute();
    },
    async list(organizationId) {
      const rows = await db.selectFrom('api_keys').select(COLUMNS).where('organization_id', '=', organizationId).orderBy('created_at').orderBy('id').execute();
      return rows.map(toApiKey);
    },
    async find(organizationId, id) {
      const row = await db.selectFrom('api_keys').select(COLUMNS).where('id', '=', id).where('organization_id', '=', organizationId).executeTakeFirst();
      return row && toApiKey(row);
    },
    async findActiveByHash(hash) {
      const row = await db.selectFrom('api_keys').select([...COLUMNS, 'hash']).where('hash', '=', hash).where('revoked_at', 'is', null).executeTakeFirst();
      return row && { ...toApiKey(row), hash: row.hash };
    },
    countActive: (organizationId) =>
      countOf(db.selectFrom('api_keys').where('organization_id', '=', organizationId).where('revoked_at', 'is', null)),
    async touch(id, now) {
      await db.updateTable('api_keys').set({ last_used_at: now }).where('id', '=', id).execute();
    },
    async revoke(organizationId, id, now) {
      const result = await db
        .updateTable('api_keys')
        .set({ revoked_at: now })
        .where('id', '=', id)
        .where('organization_id', '=', organizationId)
        .where('revoked_at', 'is', null)
        .executeTakeFirst();
      return Number(result.numUpdatedRows) > 0;
    },
    async revokeMadeBy(organizationId, userId, scopes, now) {
      if (scopes.length === 0) return [];
      const rows = await db
        .updateTable('api_keys')
        .set({ revoked_at: now })
        .where('organization_id', '=', organizationId)
        .where('created_by', '=', userId)
        .where('scope', 'in', [...scopes])
        .where('revoked_at', 'is', null)
        .returning(COLUMNS)
        .execute();
      return rows.map(toApiKey).sort((a, b) => a.createdAt - b.createdAt || a.id.localeCompare(b.id));
    },
  };
}
