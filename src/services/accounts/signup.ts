// Signing up, as WARDEN_SIGNUP allows: `closed` (nobody; owners add people with the CLI), `invite` (with an invitation
// link only) or `open` (anyone: a new organization of their own, or the invitation's when they bring one).
import { z } from 'zod';
import type { SignupMode } from '../../domain/account.js';
import { ConflictError, ForbiddenError } from '../../domain/errors.js';
import { newId } from '../../domain/ids.js';
import { parseInput, type ServiceContext, uniquely, withTransaction } from '../context.js';
import { emailField, linkTokenField, newPasswordField, userNameField } from './account-fields.js';
import { joinByInvitation } from './invitations.js';
import { issueSession } from './issue-session.js';
import type { Client } from './login.js';
import { createOwnOrganization, joinAll } from './own-organization.js';
import { hashAccountPassword } from './password.js';
import { describeAccount, type SignedIn } from './view.js';

export const signupInput = z
  .object({
    email: emailField(),
    name: userNameField(),
    password: newPasswordField(),
    invitation: linkTokenField().optional().describe('The invitation token (wdi_…) from an invitation link: the new user joins its organization.'),
  })
  .strict();

const TAKEN = 'An account with this email address exists: sign in instead.';

/** `mode`: WARDEN_SIGNUP; `fileOrganizationKey`: the key of the config file the server applies (no sign-up takes it). */
export async function signup(
  ctx: ServiceContext,
  input: z.input<typeof signupInput> & Client & { mode: SignupMode; fileOrganizationKey?: string | undefined },
): Promise<SignedIn> {
  const { userAgent, address, mode, fileOrganizationKey, ...given } = input;
  if (mode === 'closed') throw new ForbiddenError('Sign-up is closed on this server: ask an owner to add you.');
  const { email, name, password, invitation } = parseInput(signupInput, given);
  if (mode === 'invite' && invitation === undefined) throw new ForbiddenError('Signing up needs an invitation link on this server: ask an admin of your organization for one.');
  if (await ctx.store.users.findByEmail(email)) throw new ConflictError(TAKEN);
  const passwordHash = await hashAccountPassword(password);
  const userId = newId('usr');
  await withTransaction(ctx, async (tx) => {
    const now = tx.clock.now();
    await uniquely(tx, () => tx.store.users.insert({ id: userId, email, name, passwordHash }, now), TAKEN);
    const user = await tx.store.users.findById(userId);
    if (!user) throw new Error('the new user was not stored');
    if (invitation !== undefined) {
      await joinByInvitation(tx, invitation, user, null);
      return;
    }
    const organization = await createOwnOrganization(tx, { email, name, fileOrganizationKey });
    await joinAll(tx, { id: userId, name, email }, [organization], 'owner', 'signup');
  });
  const { token, session } = await issueSession(ctx, { userId, userAgent, address });
  return { token, session, account: await describeAccount(ctx, { userId }) };
}
