// Whose authority a write carries, as the user a key or an invitation it makes records: the signed-in user, or for an
// API key the user who made that key (so a key made with a key still answers to a person). Null: the operator's CLI
// and warden.yaml, or a key made by them or before Warden recorded it.
import { organizationOf, type ServiceContext } from '../context.js';

export async function makerOf(ctx: ServiceContext): Promise<string | null> {
  const actor = ctx.actor;
  if (actor?.kind === 'user') return actor.userId;
  if (actor?.kind === 'apiKey')
    return (await ctx.store.apiKeys.find(organizationOf(ctx), actor.apiKeyId))?.createdBy ?? null;
  return null;
}
