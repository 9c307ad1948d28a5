// API keys of an organization: only their SHA-256 hash and a display prefix are kept.
import type { Db } from './connect.js';

export type ApiKeyScope = 'read' | 'write';

export interface ApiKey {
  id: string;
  organizationId: string;
  name: string;
  prefix: string;
  scope: ApiKeyScope;
  createdAt: number;
  lastUsedAt: number | null;
  revokedAt: number | null;
}

type Row = {
  id: string;
  organization_id: string;
  name: string;
  prefix: string;
  scope: ApiKeyScope;
  created_at: number;
  last_used_at: number | null;
  revoked_at: number | null;
};

const toApiKey = (r: Row): ApiKey => ({
  id: r.id,
  organizationId: r.organization_id,
  name: r.name,
  prefix: r.prefix,
  scope: r.scope,
  createdAt: r.created_at,
  lastUsedAt: r.last_used_at,
  revokedAt: r.revoked_at,
});

const COLUMNS = ['id', 'organization_id', 'name', 'prefix', 'scope', 'created_at', 'last_used_at', 'revoked_at'] as const;

export async function insertApiKey(db: Db, key: Omit<ApiKey, 'lastUsedAt' | 'revokedAt'> & { hash: string }): Promise<void> {
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
    })
    .execute();
}

export async function listApiKeys(db: Db, organizationId: string): Promise<ApiKey[]> {
  const rows = await db.selectFrom('api_keys').select(COLUMNS).where('organization_id', '=', organizationId).orderBy('created_at').orderBy('id').execute();
  return rows.map(toApiKey);
}

/** The active key with this hash, if any; the caller compares in constant time. */
export async function findActiveApiKeyByHash(db: Db, hash: string): Promise<(ApiKey & { hash: string }) | undefined> {
  const row = await db
    .selectFrom('api_keys')
    .select([...COLUMNS, 'hash'])
    .where('hash', '=', hash)
    .where('revoked_at', 'is', null)
    .executeTakeFirst();
  return row && { ...toApiKey(row), hash: row.hash };
}

export async function countActiveApiKeys(db: Db, organizationId: string): Promise<number> {
  const row = await db
    .selectFrom('api_keys')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('organization_id', '=', organizationId)
    .where('revoked_at', 'is', null)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

export async function touchApiKey(db: Db, id: string, now: number): Promise<void> {
  await db.updateTable('api_keys').set({ last_used_at: now }).where('id', '=', id).execute();
}

/** Revokes a key of this organization; false when there is no such active key. */
export async function revokeApiKey(db: Db, organizationId: string, id: string, now: number): Promise<boolean> {
  const result = await db
    .updateTable('api_keys')
    .set({ revoked_at: now })
    .where('id', '=', id)
    .where('organization_id', '=', organizationId)
    .where('revoked_at', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}
