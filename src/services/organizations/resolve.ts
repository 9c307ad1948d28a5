// Picks the organization a CLI command acts on: the one named, or the only one there is (the built-in demo aside).
import { z } from 'zod';
import { NotFoundError, ValidationError } from '../../domain/errors.js';
import { reference } from '../../domain/fields.js';
import { DEMO_ORGANIZATION_KEY, type Organization } from '../../domain/organization.js';
import { parseInput, type ServiceContext } from '../context.js';

const input = z.object({ key: reference().optional() });

export async function resolveOrganization(
  ctx: ServiceContext,
  given: z.input<typeof input> = {},
): Promise<Organization> {
  const { key } = parseInput(input, given);
  if (key !== undefined) {
    const found = await ctx.store.organizations.findByKey(key);
    if (!found) throw new NotFoundError('organization', key);
    return found;
  }
  const all = await ctx.store.organizations.list();
  // The built-in demo is not counted: beside one organization of the operator's, that one is meant (the demo only
  // when it is alone).
  const own = all.filter((o) => !(o.key === DEMO_ORGANIZATION_KEY && o.managedBy === 'config'));
  const candidates = own.length > 0 ? own : all;
  if (candidates.length === 1) return candidates[0] as Organization;
  if (candidates.length === 0)
    throw new NotFoundError('organization', '(none yet: start the server or run `warden config apply` first)');
  throw new ValidationError(
    [{ path: 'org', message: `choose one of: ${candidates.map((o) => o.key).join(', ')}` }],
    'There are several organizations; pass --org KEY.',
  );
}

/** Every organization, oldest first. */
export async function listOrganizations(ctx: ServiceContext): Promise<Organization[]> {
  return ctx.store.organizations.list();
}
