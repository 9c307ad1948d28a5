// The organization a signed-in user acts for: the one a request names (by key or id) among theirs, else their first.
import type { Membership } from '../../domain/account.js';
import type { Organization } from '../../domain/organization.js';
import type { ServiceContext } from '../context.js';

/** Undefined: the user is a member of no organization, or not of the one named. */
export async function actingMembership(
  ctx: ServiceContext,
  { userId, wanted }: { userId: string; wanted?: string | undefined },
): Promise<(Membership & { organization: Organization }) | undefined> {
  const memberships = await ctx.store.memberships.listByUser(userId);
  return wanted === undefined
    ? memberships[0]
    : memberships.find((m) => m.organization.key === wanted || m.organizationId === wanted);
}
