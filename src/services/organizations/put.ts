// Creates the organization with this key or renames it and sets its probe-target policy (config sync: the file names
// its organization by key).
import { z } from 'zod';
import { stableKey, text } from '../../domain/fields.js';
import { newId } from '../../domain/ids.js';
import type { Organization } from '../../domain/organization.js';
import { parseInput, type ServiceContext, writerOf } from '../context.js';

export const organizationInput = z
  .object({
    key: stableKey().default('default'),
    name: text(200),
    probePrivateTargets: z
      .enum(['allow', 'deny'], { error: 'expected allow or deny' })
      .optional()
      .describe(
        "Whether this organization's edge probes may reach loopback, private, link-local and similar addresses; left out, WARDEN_PROBE_PRIVATE_TARGETS decides.",
      ),
  })
  .strict();

export async function putOrganization(
  ctx: ServiceContext,
  given: z.input<typeof organizationInput>,
): Promise<{ organization: Organization; outcome: 'created' | 'updated' | 'unchanged' }> {
  const { key, name, probePrivateTargets } = parseInput(organizationInput, given);
  const now = ctx.clock.now();
  // The file is the truth: a policy it no longer states goes back to following the global setting.
  // Declared by warden.yaml, it is the file's from then on (renamed and deleted only there); sign-ups make 'api' ones.
  const managedBy = writerOf(ctx) === 'config' ? 'config' : undefined;
  const { organization, changed } = await ctx.store.organizations.upsert(
    { id: newId('org'), key, name, probePrivateTargets: probePrivateTargets ?? null, ...(managedBy ? { managedBy } : {}) },
    now,
  );
  // A new organization or a changed policy changes what the edge runner's probes may reach (see probeTargetPolicies).
  if (changed) ctx.bus.publish({ type: 'monitors.changed', at: now, organizationId: organization.id });
  return { organization, outcome: !changed ? 'unchanged' : organization.createdAt === now ? 'created' : 'updated' };
}
