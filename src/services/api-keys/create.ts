// Creates an API key; the secret is returned once and only its hash is stored.
import { ConflictError } from '../../domain/errors.js';
import { newId } from '../../domain/ids.js';
import { displayPrefix, generateSecret, hashSecret } from '../../domain/tokens.js';
import { type ApiKey, type ApiKeyScope, countActiveApiKeys, insertApiKey } from '../../store/api-keys.js';
import type { Db } from '../../store/connect.js';
import { API_LIMITS } from '../api-limits.js';

export async function createApiKey(
  db: Db,
  input: { organizationId: string; name: string; scope: ApiKeyScope },
  now: number,
): Promise<{ apiKey: ApiKey; secret: string }> {
  if ((await countActiveApiKeys(db, input.organizationId)) >= API_LIMITS.activeApiKeysPerOrganization)
    throw new ConflictError(`an organization has at most ${API_LIMITS.activeApiKeysPerOrganization} active API keys; revoke unused ones first`);
  const secret = generateSecret('apiKey');
  const apiKey: ApiKey = {
    id: newId('key'),
    organizationId: input.organizationId,
    name: input.name,
    prefix: displayPrefix(secret),
    scope: input.scope,
    createdAt: now,
    lastUsedAt: null,
    revokedAt: null,
  };
  await insertApiKey(db, { ...apiKey, hash: hashSecret(secret) });
  return { apiKey, secret };
}
