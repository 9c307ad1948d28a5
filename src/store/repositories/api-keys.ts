// API keys of an organization: only their SHA-256 hash and a display prefix are kept.
import type { Selectable } from 'kysely';
import type { ApiKey, ApiKeyScope } from '../../domain/organization.js';
import type { ApiKeysTable, Db } from '../tables.js';
import { countOf } from './count.js';
import { updateWhere } from './query.js';
import { toColumns } from './rows.js';

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

const COLUMNS = [
  'id',
  'organization_id',
  'name',
  'prefix',
  'scope',
  'created_at',
  'last_used_at',
  'revoked_at',
  'created_by',
] as const;

export interface ApiKeyRepository {
  /** `createdBy` left out: null (the operator's CLI). */
  insert(
    key: Omit<ApiKey, 'lastUsedAt' | 'revokedAt' | 'createdBy'> & { hash: string; createdBy?: string | null },
  ): Promise<void>;
  /** Revoked keys included, oldest first. */
  list(organizationId: string): Promise<ApiKey[]>;
  /** The organization's key with this id, revoked or not. */
  find(organizationId: string, id: string): Promise<ApiKey | undefined>;
  /** The active key with this hash, if any; the caller compares in constant time. */
  findActiveByHash(hash: string): Promise<(ApiKey & { hash: string }) | undefined>;
  countActive(organizationId: string): Promise<number>;
  touch(id: string, now: number): Promise<void>;
  /** False when the organization has no such active key. */
  revoke(organizationId: string, id: string, now: number): Promise<boolean>;
  /**
   * Revokes the organization's active keys that `userId` made with one of `scopes` (none given: none revoked) and
   * returns them, revoked at `now`, oldest first; keys already revoked, made by others or of other organizations stay.
   */
  revokeMadeBy(organizationId: string, userId: string, scopes: readonly ApiKeyScope[], now: number): Promise<ApiKey[]>;
}

export function apiKeyRepository(db: Db): ApiKeyRepository {
  return {
    async insert(key) {
      await db
        .insertInto('api_keys')
        .values({
          ...toColumns(key, ['id', 'organizationId', 'name', 'prefix', 'hash', 'scope', 'createdAt']),
          last_used_at: null,
          revoked_at: null,
          created_by: key.createdBy ?? null,
        })
        .execute();
    },
    async list(organizationId) {
      const rows = await db
        .selectFrom('api_keys')
        .select(COLUMNS)
        .where('organization_id', '=', organizationId)
        .orderBy('created_at')
        .orderBy('id')
        .execute();
      return rows.map(toApiKey);
    },
    async find(organizationId, id) {
      const row = await db
        .selectFrom('api_keys')
        .select(COLUMNS)
        .where('id', '=', id)
        .where('organization_id', '=', organizationId)
        .executeTakeFirst();
      return row && toApiKey(row);
    },
    async findActiveByHash(hash) {
      const row = await db
        .selectFrom('api_keys')
        .select([...COLUMNS, 'hash'])
        .where('hash', '=', hash)
        .where('revoked_at', 'is', null)
        .executeTakeFirst();
      return row && { ...toApiKey(row), hash: row.hash };
    },
    countActive: (organizationId) =>
      countOf(db.selectFrom('api_keys').where('organization_id', '=', organizationId).where('revoked_at', 'is', null)),
    async touch(id, now) {
      await updateWhere(db, 'api_keys', { id }, { last_used_at: now });
    },
    revoke: async (organizationId, id, now) =>
      (await updateWhere(
        db,
        'api_keys',
        { id, organization_id: organizationId, revoked_at: null },
        { revoked_at: now },
      )) > 0,
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
