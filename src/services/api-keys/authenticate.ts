// Checks a presented API key and records its use (at most once a minute, so reads stay cheap).
import type { ApiKey } from '../../domain/organization.js';
import { hashSecret, isSecretOfKind, secretMatchesHash } from '../../domain/tokens.js';
import { API_LIMITS } from '../api-limits.js';
import type { ServiceContext } from '../context.js';

/** The active key, or null when the secret is malformed, unknown or revoked. */
export async function authenticateApiKey(ctx: ServiceContext, { secret }: { secret: string }): Promise<ApiKey | null> {
  if (!isSecretOfKind('apiKey', secret)) return null;
  const key = await ctx.store.apiKeys.findActiveByHash(hashSecret(secret));
  if (!key || !secretMatchesHash(secret, key.hash)) return null;
  const now = ctx.clock.now();
  if (key.lastUsedAt === null || now - key.lastUsedAt >= API_LIMITS.lastUsedResolutionMs) {
    await ctx.store.apiKeys.touch(key.id, now);
    key.lastUsedAt = now;
  }
  const { hash: _hash, ...apiKey } = key;
  return apiKey;
}
