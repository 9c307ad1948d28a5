// Signing in with an email and a password (and, when the user turned TOTP on, a code): a new session, or a 401 that
// says no more than it must. An unknown email and a wrong password get the same answer after the same scrypt work.
import { z } from 'zod';
import { SignInError } from '../../domain/account-errors.js';
import { parseInput, type ServiceContext } from '../context.js';
import { emailField, givenPasswordField, secondFactorField } from './account-fields.js';
import { issueSession } from './issue-session.js';
import { verifyAccountPassword } from './password.js';
import { acceptSecondFactor } from './second-factor.js';
import { describeAccount, type SignedIn } from './view.js';

export const loginInput = z.object({
  email: emailField(),
  password: givenPasswordField(),
  code: secondFactorField()
    .optional()
    .describe('With TOTP on: the 6-digit code of the authenticator app, or an unused recovery code.'),
});

/** Who signs in from where: kept with the session so its owner can tell their sessions apart. */
export interface Client {
  userAgent?: string | undefined;
  address?: string | undefined;
}

export async function login(ctx: ServiceContext, input: z.input<typeof loginInput> & Client): Promise<SignedIn> {
  const { email, password, code } = parseInput(loginInput, input);
  const user = await ctx.store.users.findByEmail(email);
  const right = await verifyAccountPassword(password, user?.passwordHash ?? null);
  if (!user || !right) throw new SignInError('invalid-credentials', 'The email or the password is not right.');
  if (user.totpEnabledAt !== null) {
    if (code === undefined)
      throw new SignInError(
        'second-factor-required',
        'Enter the 6-digit code of your authenticator app, or a recovery code.',
      );
    if (!(await acceptSecondFactor(ctx, user, code)))
      throw new SignInError('invalid-second-factor', 'That code is not right (or the recovery code was used).');
  }
  const { token, session } = await issueSession(ctx, {
    userId: user.id,
    userAgent: input.userAgent,
    address: input.address,
  });
  return { token, session, account: await describeAccount(ctx, { userId: user.id }) };
}
