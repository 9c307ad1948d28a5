// A signed-in user changes their own name (at once), email (once a link mailed to the new address is followed:
// email-change.ts) or password. A new password ends every other session of the user, so a browser someone else
// signed in with is out the moment the owner notices.
import { z } from 'zod';
import type { Session } from '../../domain/account.js';
import { WrongSecretError } from '../../domain/account-errors.js';
import { ConflictError, NotFoundError } from '../../domain/errors.js';
import { parseInput, type ServiceContext } from '../context.js';
import { emailField, givenPasswordField, newPasswordField, userNameField } from './account-fields.js';
import { type PendingEmail, requestEmailChange, wantsEmailLink } from './email-change.js';
import { proofFields, type SecretGuard, storedUser } from './fresh-proof.js';
import { hashAccountPassword, verifyAccountPassword } from './password.js';
import { type Account, describeAccount } from './view.js';

export const profileInput = z
  .object({
    name: userNameField().optional(),
    email: emailField()
      .optional()
      .describe(
        'A new address (or your own, not confirmed yet): a link is mailed to it, and the account uses it once the link is followed. Needs a fresh proof.',
      ),
    ...proofFields,
  })
  .strict();

export interface ProfileChange extends Account {
  /** The address a confirmation link was just mailed to; null when the email did not change. */
  emailChange: PendingEmail | null;
}

export async function updateProfile(
  ctx: ServiceContext,
  input: z.input<typeof profileInput> & { userId: string; session: Session; guard?: SecretGuard | undefined },
): Promise<ProfileChange> {
  const { userId, session, guard, ...given } = input;
  const { name, email, password, code } = parseInput(profileInput, given);
  const user = await storedUser(ctx, userId);
  const emailChange = wantsEmailLink(user, email)
    ? await requestEmailChange(ctx, { user, session, email, proof: { password, code }, guard })
    : null;
  if (name !== undefined) await ctx.store.users.update(userId, { name }, ctx.clock.now());
  return { ...(await describeAccount(ctx, { userId })), emailChange };
}

export const passwordChangeInput = z
  .object({
    currentPassword: givenPasswordField(),
    newPassword: newPasswordField(),
  })
  .strict();

/** Sets a new password; returns how many other sessions it ended. */
export async function changePassword(
  ctx: ServiceContext,
  input: z.input<typeof passwordChangeInput> & { userId: string; sessionId: string },
): Promise<number> {
  const { userId, sessionId, ...given } = input;
  const { currentPassword, newPassword } = parseInput(passwordChangeInput, given);
  const user = await ctx.store.users.findById(userId);
  if (!user) throw new NotFoundError('user', userId);
  // A session alone never gives an account a first password: that would outlive the session (and the provider's checks).
  if (user.passwordHash === null)
    throw new ConflictError(
      'This account signs in with OpenID Connect and has no password; an operator can send a password link (`warden users reset-password`).',
    );
  if (!(await verifyAccountPassword(currentPassword, user.passwordHash)))
    throw new WrongSecretError('currentPassword', 'is not your current password');
  const passwordHash = await hashAccountPassword(newPassword);
  return ctx.store.transaction(async (store) => {
    const now = ctx.clock.now();
    await store.users.update(userId, { passwordHash }, now);
    // The current password was just proven: a sensitive change right after needs no other proof.
    await store.sessions.prove(sessionId, now);
    return store.sessions.deleteAllOfUser(userId, sessionId);
  });
}
