// Creates an API key; the secret is returned once and only its hash is stored.
import { newId } from '../../domain/ids.js';
import { displayPrefix, generateSecret, hashSecret } from '../../domain/tokens.js';
import { type ApiKey, type ApiKeyScope, insertApiKey } from '../../store/api-keys.js';
import type { Db } from '../../store/connect.js';

export async function createApiKey(
  db: Db,
  input: { organizationId: string; name: string; scope: ApiKeyScope },
  now: number,
): Promise<{ apiKey: ApiKey; secret: string }> {
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
