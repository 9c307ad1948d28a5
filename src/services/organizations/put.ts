// Creates the organization with this key or renames it and sets its probe-target policy (config sync: the file names
// its organization by key). The file takes over no organization it did not create: one made through a sign-up or the
// API is adopted only when the operator says so (`warden config apply --adopt KEY`). A file that gives the key alone
// manages none of the organization's own fields: it adds its monitors, pages and channels to the one with that key.
import { z } from 'zod';
import { ConflictError, ValidationError } from '../../domain/errors.js';
import { stableKey, text } from '../../domain/fields.js';
import { newId } from '../../domain/ids.js';
import { DEFAULT_ORGANIZATION_KEY, type Organization } from '../../domain/organization.js';
import { parseInput, type ServiceContext, writerOf } from '../context.js';

export const organizationInput = z
  .object({
    key: stableKey().default(DEFAULT_ORGANIZATION_KEY),
    name: text(200),
    probePrivateTargets: z
      .enum(['allow', 'deny'], { error: 'expected allow or deny' })
      .optional()
      .describe(
        "Whether this organization's edge probes may reach loopback, private, link-local and similar addresses; left out, WARDEN_PROBE_PRIVATE_TARGETS decides.",
      ),
  })
  .strict();

export interface PutOrganizationOptions {
  /** The operator takes over an existing organization the file did not create (config sync only). */
  adopt?: boolean;
}

export interface PutOrganizationResult {
  organization: Organization;
  outcome: 'created' | 'updated' | 'unchanged';
  /** Made through a sign-up or the API, and the file's from now on (adopted on purpose). */
  adopted: boolean;
}

export async function putOrganization(
  ctx: ServiceContext,
  given: z.input<typeof organizationInput>,
  options: PutOrganizationOptions = {},
): Promise<PutOrganizationResult> {
  const { key, name, probePrivateTargets } = parseInput(organizationInput, given);
  const now = ctx.clock.now();
  // Declared by warden.yaml, it is the file's from then on (renamed and deleted only there); sign-ups make 'api' ones.
  const managedBy = writerOf(ctx) === 'config' ? 'config' : undefined;
  const existing = managedBy ? await ctx.store.organizations.findByKey(key) : undefined;
  const adopted = existing !== undefined && existing.managedBy !== 'config';
  if (adopted && !options.adopt) throw notTheFiles(key);
  // The file is the truth: a policy it no longer states goes back to following the global setting.
  const { organization, changed } = await ctx.store.organizations.upsert(
    {
      id: newId('org'),
      key,
      name,
      probePrivateTargets: probePrivateTargets ?? null,
      ...(managedBy ? { managedBy } : {}),
    },
    now,
  );
  // A new organization or a changed policy changes what the edge runner's probes may reach (see probeTargetPolicies).
  if (changed) ctx.bus.publish({ type: 'monitors.changed', at: now, organizationId: organization.id });
  return {
    organization,
    outcome: !changed ? 'unchanged' : organization.createdAt === now ? 'created' : 'updated',
    adopted,
  };
}

/**
 * Someone else may have made it: a stranger who signed up first with the key the operator's file names would
 * otherwise get the operator's monitors and channels, and stay its owner.
 */
function notTheFiles(key: string): ConflictError {
  return new ConflictError(
    `the organization "${key}" exists and no config file made it (it was made through a sign-up or the API: its members and API keys may be someone else's): config apply takes over no organization it did not create. If it is yours, name it by its key alone (\`organization: { key: ${key} }\`) to add the file's objects to it and leave its name to the dashboard, or take it over on purpose with \`warden config apply --adopt ${key}\`; otherwise give the file's organization another key.`,
  );
}

/**
 * The organization a file names by its key alone (`organization: { key: acme }`): used as it is, its name, policy,
 * members and keys left to the dashboard and the API, so applying the file takes nothing over and needs no adopting.
 */
export async function referencedOrganization(ctx: ServiceContext, key: string): Promise<PutOrganizationResult> {
  const organization = await ctx.store.organizations.findByKey(key);
  if (!organization)
    throw new ValidationError(
      [
        {
          path: 'organization.name',
          message: `no organization has the key "${key}": give a name to create it (organization: { key: ${key}, name: … })`,
        },
      ],
      `The file names the organization "${key}" by its key alone, and none has that key.`,
    );
  return { organization, outcome: 'unchanged', adopted: false };
}
