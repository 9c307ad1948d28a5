// Lists the organization's API keys, revoked ones included, oldest first; and revokes one, which stops working at once.
import type { z } from 'zod';
import { NotFoundError } from '../../domain/errors.js';
import { organizationOf, parseInput, type ServiceContext } from '../context.js';
import { apiKeyIdSchema } from './schema.js';
import { type ApiKeyView, apiKeyView } from './view.js';

export async function listApiKeys(ctx: ServiceContext): Promise<ApiKeyView[]> {
  return (await ctx.store.apiKeys.list(organizationOf(ctx))).map(apiKeyView);
}

export async function revokeApiKey(ctx: ServiceContext, input: z.input<typeof apiKeyIdSchema>): Promise<void> {
  const { id } = parseInput(apiKeyIdSchema, input);
  if (!(await ctx.store.apiKeys.revoke(organizationOf(ctx), id, ctx.clock.now())))
    throw new NotFoundError('API key', id);
}
