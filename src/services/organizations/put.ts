// Creates the organization with this key or renames it (config sync: the file names its organization by key).
import { z } from 'zod';
import { stableKey, text } from '../../domain/fields.js';
import { newId } from '../../domain/ids.js';
import type { Organization } from '../../domain/organization.js';
import { parseInput, type ServiceContext } from '../context.js';

export const organizationInput = z.object({ key: stableKey().default('default'), name: text(200) }).strict();

export async function putOrganization(
  ctx: ServiceContext,
  given: z.input<typeof organizationInput>,
): Promise<{ organization: Organization; outcome: 'created' | 'updated' | 'unchanged' }> {
  const { key, name } = parseInput(organizationInput, given);
  const now = ctx.clock.now();
  const { organization, changed } = await ctx.store.organizations.upsert({ id: newId('org'), key, name }, now);
  return { organization, outcome: !changed ? 'unchanged' : organization.createdAt === now ? 'created' : 'updated' };
}
