// A signed-in user creates an organization and becomes its owner: when anyone may sign up (WARDEN_SIGNUP=open), or
// when they own one already (an operator's team adding another), up to ACCOUNT_LIMITS.organizationsPerUser.
import { z } from 'zod';
import { ACCOUNT_LIMITS, type SignupMode } from '../../domain/account.js';
import { ConflictError, ForbiddenError, ValidationError } from '../../domain/errors.js';
import { stableKey, text } from '../../domain/fields.js';
import { newId } from '../../domain/ids.js';
import { isReservedOrganizationKey } from '../../domain/organization.js';
import { recordAudit } from '../audit/record.js';
import { parseInput, type ServiceContext, uniquely, withTransaction } from '../context.js';
import { type OrganizationView, organizationView } from './current.js';

export const organizationCreateSchema = z
  .object({
    key: stableKey().describe('Its stable key (lower case, digits, - and _): unique on this server.'),
    name: text(200),
  })
  .strict();

/** The verbs' context with who may sign up (settings.accounts.signup) and the key of the server's config file. */
export interface OrganizationCreateContext extends ServiceContext {
  signup: SignupMode;
  fileOrganizationKey?: string | undefined;
}

export async function createOrganization(
  ctx: OrganizationCreateContext,
  input: z.input<typeof organizationCreateSchema>,
): Promise<OrganizationView> {
  const { key, name } = parseInput(organizationCreateSchema, input);
  const actor = ctx.actor;
  if (actor?.kind !== 'user')
    throw new ForbiddenError('Only a signed-in user creates organizations (and becomes their owner).');
  if (isReservedOrganizationKey(key, ctx.fileOrganizationKey))
    throw new ValidationError(
      [
        {
          path: 'key',
          message: `"${key}" is reserved for the operator's config file (warden.yaml); choose another key`,
        },
      ],
      'This organization key is reserved.',
    );
  const taken = `the organization key "${key}" is already taken`;
  return uniquely(
    ctx,
    () =>
      withTransaction(ctx, async (tx) => {
        // The same lock as sign-up's own organizations: two requests wanting one key wait for each other.
        await tx.store.exclusive('organization-keys');
        const memberships = await tx.store.memberships.listByUser(actor.userId);
        if (ctx.signup !== 'open' && !memberships.some((m) => m.role === 'owner'))
          throw new ForbiddenError(
            'Only owners of an organization may create another one here (sign-up is not open on this server).',
          );
        if (memberships.length >= ACCOUNT_LIMITS.organizationsPerUser)
          throw new ConflictError(`a user belongs to at most ${ACCOUNT_LIMITS.organizationsPerUser} organizations`);
        if (await tx.store.organizations.findByKey(key)) throw new ConflictError(taken);
        const now = tx.clock.now();
        const { organization } = await tx.store.organizations.upsert({ id: newId('org'), key, name }, now);
        await tx.store.memberships.put({
          organizationId: organization.id,
          userId: actor.userId,
          role: 'owner',
          createdAt: now,
        });
        const owner = { ...tx, organizationId: organization.id, actor: { ...actor, role: 'owner' as const } };
        await recordAudit(owner, {
          action: 'organization.create',
          id: organization.id,
          label: organization.key,
          detail: null,
        });
        // One more organization can change what `auto` lets probes reach (see probeTargetPolicies).
        tx.bus.publish({ type: 'monitors.changed', at: now, organizationId: organization.id });
        return organizationView(organization, 'owner');
      }),
    taken,
  );
}
