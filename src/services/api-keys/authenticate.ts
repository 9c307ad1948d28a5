// Checks a presented API key and records its use (at most once a minute, so reads stay cheap).
import { hashSecret, isSecretOfKind, secretMatchesHash } from '../../domain/tokens.js';
import { type ApiKey, findActiveApiKeyByHash, touchApiKey } from '../../store/api-keys.js';
import type { Db } from '../../store/connect.js';
import { API_LIMITS } from '../api-limits.js';

/** The active key, or null when the secret is malformed, unknown or revoked. */
export async function authenticateApiKey(db: Db, secret: string, now: number): Promise<ApiKey | null> {
  if (!isSecretOfKind('apiKey', secret)) return null;
  const key = await findActiveApiKeyByHash(db, hashSecret(secret));
  if (!key || !secretMatchesHash(secret, key.hash)) return null;
  if (key.lastUsedAt === null || now - key.lastUsedAt >= API_LIMITS.lastUsedResolutionMs) {
    await touchApiKey(db, key.id, now);
    key.lastUsedAt = now;
  }
  const { hash: _hash, ...apiKey } = key;
  return apiKey;
}
