// Creates an API key; the secret is returned once and only its hash is stored. The key records whose authority made it
// (makerOf): removing or demoting that member revokes it (services/members/revoke-made.ts).
import type { z } from 'zod';
import { ConflictError } from '../../domain/errors.js';
import { newId } from '../../domain/ids.js';
import { LIMITS } from '../../domain/limits.js';
import type { ApiKey } from '../../domain/organization.js';
import { displayPrefix, generateSecret, hashSecret } from '../../domain/tokens.js';
import { organizationOf, parseInput, type ServiceContext } from '../context.js';
import { makerOf } from './maker.js';
import { apiKeyCreateSchema } from './schema.js';

export async function createApiKey(
  ctx: ServiceContext,
  input: z.input<typeof apiKeyCreateSchema>,
): Promise<{ apiKey: ApiKey; secret: string }> {
  const { name, scope } = parseInput(apiKeyCreateSchema, input);
  const organizationId = organizationOf(ctx);
  if ((await ctx.store.apiKeys.countActive(organizationId)) >= LIMITS.activeApiKeysPerOrganization)
    throw new ConflictError(
      `an organization has at most ${LIMITS.activeApiKeysPerOrganization} active API keys; revoke unused ones first`,
    );
  const secret = generateSecret('apiKey');
  const apiKey: ApiKey = {
    id: newId('key'),
    organizationId,
    name,
    prefix: displayPrefix(secret),
    scope,
    createdAt: ctx.clock.now(),
    lastUsedAt: null,
    revokedAt: null,
    createdBy: await makerOf(ctx),
  };
  await ctx.store.apiKeys.insert({ ...apiKey, hash: hashSecret(secret) });
  return { apiKey, secret };
}
