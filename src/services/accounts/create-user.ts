// An operator adds a user (`warden users create`): with a password, or none yet (they set it through a one-time link),
// and a role in one organization — or, as an owner named nowhere in particular, in every one but the demo (like setup).
import { z } from 'zod';
import { ROLES, type User } from '../../domain/account.js';
import { ConflictError, NotFoundError, ValidationError } from '../../domain/errors.js';
import { reference } from '../../domain/fields.js';
import { newId } from '../../domain/ids.js';
import { DEMO_ORGANIZATION_KEY, type Organization } from '../../domain/organization.js';
import { parseInput, type ServiceContext, uniquely, withTransaction } from '../context.js';
import { emailField, newPasswordField, userNameField } from './account-fields.js';
import { firstOrganizationInput, joinAll, organizationsForFirstOwner } from './own-organization.js';
import { hashAccountPassword } from './password.js';

export const createUserInput = z
  .object({
    email: emailField(),
    name: userNameField().optional(),
    password: newPasswordField().optional(),
    role: z.enum(ROLES, { error: `expected one of ${ROLES.join(', ')}` }),
    /** The organization's key; left out: an owner gets every organization but the demo, any other role the only one. */
    organization: reference().optional(),
  })
  .strict();

const TAKEN = 'An account with this email address exists.';

export async function createUser(
  ctx: ServiceContext,
  input: z.input<typeof createUserInput>,
): Promise<{ user: User; organizations: Organization[] }> {
  const {
    email,
    name = email.split('@')[0] ?? email,
    password,
    role,
    organization,
  } = parseInput(createUserInput, input);
  if (await ctx.store.users.findByEmail(email)) throw new ConflictError(TAKEN);
  const passwordHash = password === undefined ? null : await hashAccountPassword(password);
  const userId = newId('usr');
  const organizations = await withTransaction(ctx, async (tx) => {
    // The operator vouches for the address.
    await uniquely(
      tx,
      () =>
        tx.store.users.insert(
          { id: userId, email, name, passwordHash, emailVerifiedAt: tx.clock.now() },
          tx.clock.now(),
        ),
      TAKEN,
    );
    // Someone exists now: a setup link still lying around must not make a second first owner.
    await tx.store.accountTokens.deleteUnused('setup');
    const joined = await organizationsFor(tx, role, organization);
    await joinAll(tx, { id: userId, name, email }, joined, role, 'cli');
    return joined;
  });
  const user = await ctx.store.users.findById(userId);
  if (!user) throw new NotFoundError('user', userId);
  const { passwordHash: _p, totpSecret: _t, ...view } = user;
  return { user: view, organizations };
}

async function organizationsFor(ctx: ServiceContext, role: string, key: string | undefined): Promise<Organization[]> {
  if (key !== undefined) {
    const found = await ctx.store.organizations.findByKey(key);
    if (!found) throw new NotFoundError('organization', key);
    return [found];
  }
  if (role === 'owner') return organizationsForFirstOwner(ctx, firstOrganizationInput.parse({}));
  const candidates = (await ctx.store.organizations.list()).filter((o) => o.key !== DEMO_ORGANIZATION_KEY);
  if (candidates.length === 1) return candidates;
  throw new ValidationError(
    [
      {
        path: 'org',
        message:
          candidates.length === 0
            ? 'there is no organization yet: create the owner first'
            : `choose one of: ${candidates.map((o) => o.key).join(', ')}`,
      },
    ],
    'Name the organization the user joins: --org KEY.',
  );
}
