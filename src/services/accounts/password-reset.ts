// Password resets: an operator prints a one-time link for a user (`warden users reset-password`, or `users create`
// without a password); using it sets the password and ends every session of the user.
import { z } from 'zod';
import { ACCOUNT_LIMITS } from '../../domain/account.js';
import { UnusableLinkError } from '../../domain/account-errors.js';
import { NotFoundError } from '../../domain/errors.js';
import { generateSecret, hashSecret, isSecretOfKind } from '../../domain/tokens.js';
import { parseInput, type ServiceContext } from '../context.js';
import { emailField, linkTokenField, newPasswordField } from './account-fields.js';
import { hashAccountPassword } from './password.js';

/** The path of the dashboard's page that takes a password-reset token. */
export const RESET_PATH = '/app/reset';

const issueInput = z.object({ email: emailField() });

/** A link that sets the password of the user with this email, valid ACCOUNT_LIMITS.passwordResetLifetimeMs; shown once. */
export async function issuePasswordReset(
  ctx: ServiceContext,
  input: { email: string },
): Promise<{ url: string; expiresAt: number }> {
  const { email } = parseInput(issueInput, input);
  const user = await ctx.store.users.findByEmail(email);
  if (!user) throw new NotFoundError('user', email);
  return passwordLinkFor(ctx, user.id);
}

/** A one-time password link for a user (a reset, or the first password of a user made by the CLI). */
export async function passwordLinkFor(
  ctx: ServiceContext,
  userId: string,
): Promise<{ url: string; expiresAt: number }> {
  const now = ctx.clock.now();
  const token = generateSecret('accountToken');
  const expiresAt = now + ACCOUNT_LIMITS.passwordResetLifetimeMs;
  await ctx.store.accountTokens.insert({
    hash: hashSecret(token),
    purpose: 'password-reset',
    userId,
    createdAt: now,
    expiresAt,
    usedAt: null,
  });
  return { url: `${ctx.baseUrl ?? ''}${RESET_PATH}?token=${token}`, expiresAt };
}

export const passwordResetInput = z
  .object({
    token: linkTokenField().describe('The token of the reset link (wdu_…).'),
    password: newPasswordField(),
  })
  .strict();

/** Uses a reset link: the new password, and every session of the user ended (whoever held one is out). */
export async function resetPassword(ctx: ServiceContext, input: z.input<typeof passwordResetInput>): Promise<void> {
  const { token, password } = parseInput(passwordResetInput, input);
  const passwordHash = await hashAccountPassword(password);
  await ctx.store.transaction(async (store) => {
    const now = ctx.clock.now();
    const used = isSecretOfKind('accountToken', token)
      ? await store.accountTokens.use(hashSecret(token), 'password-reset', now)
      : undefined;
    if (!used || used.userId === null || !(await store.users.findById(used.userId)))
      throw new UnusableLinkError(
        'link-unusable',
        'This password link was used or has expired: ask the operator for a new one (`warden users reset-password`).',
      );
    await store.users.update(used.userId, { passwordHash }, now);
    await store.sessions.deleteAllOfUser(used.userId);
  });
}
