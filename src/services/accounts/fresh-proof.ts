// Sensitive changes of one's own account — new recovery codes, TOTP on or off, a new email — need more than a session
// (a cookie left in a browser, or stolen): the password or a code proven in the session within
// ACCOUNT_LIMITS.freshProofMs (signing in counts), or sent with the request, which then counts as a proof.
import { z } from 'zod';
import { ACCOUNT_LIMITS, type Session, type StoredUser } from '../../domain/account.js';
import { ReauthenticationRequiredError, WrongSecretError } from '../../domain/account-errors.js';
import { NotFoundError } from '../../domain/errors.js';
import type { ServiceContext } from '../context.js';
import { givenPasswordField, secondFactorField } from './account-fields.js';
import { verifyAccountPassword } from './password.js';
import { acceptSecondFactor } from './second-factor.js';

/** The fields a request proves its user with; either one. */
export const proofFields = {
  password: givenPasswordField()
    .optional()
    .describe('Your password, when you have not signed in or proven it in the last few minutes; or send `code`.'),
  code: secondFactorField()
    .optional()
    .describe('A current TOTP code or an unused recovery code (with TOTP on); or send `password`.'),
};

export interface Proof {
  password?: string | undefined;
  code?: string | undefined;
}

/**
 * Runs the check of a password or code sent with a request under the attempt limits (sign-in-attempts.ts): the
 * adapter's, as it knows the client. Only the check, never the change it guards (a mail may take seconds).
 */
export type SecretGuard = <T>(check: () => Promise<T>) => Promise<T>;

const unguarded: SecretGuard = (check) => check();

/**
 * Passes when `proof` holds the user's password or a right code (recorded on the session), or when the session proved
 * its user within ACCOUNT_LIMITS.freshProofMs. A wrong one is a WrongSecretError (counted like a wrong sign-in);
 * none, with an older proof, a ReauthenticationRequiredError (403) saying what to send.
 */
export async function requireFreshProof(
  ctx: ServiceContext,
  input: { user: StoredUser; session: Session; proof: Proof; guard?: SecretGuard | undefined },
): Promise<void> {
  const { user, session, proof } = input;
  const guard = input.guard ?? unguarded;
  if (proof.password !== undefined) {
    const password = proof.password;
    await guard(async () => {
      if (!(await verifyAccountPassword(password, user.passwordHash)))
        throw new WrongSecretError('password', 'is not your password');
    });
  } else if (proof.code !== undefined) {
    const code = proof.code;
    await guard(async () => {
      if (!(await acceptSecondFactor(ctx, user, code)))
        throw new WrongSecretError('code', 'is not right (or the recovery code was used)');
    });
  } else {
    if (session.provenAt !== null && ctx.clock.now() - session.provenAt <= ACCOUNT_LIMITS.freshProofMs) return;
    throw new ReauthenticationRequiredError(reauthenticationHint(user));
  }
  const now = ctx.clock.now();
  await ctx.store.sessions.prove(session.id, now);
  session.provenAt = now;
}

/** The stored user of a session route, with what a proof is checked against. */
export async function storedUser(ctx: ServiceContext, userId: string): Promise<StoredUser> {
  const user = await ctx.store.users.findById(userId);
  if (!user) throw new NotFoundError('user', userId);
  return user;
}

const minutes = Math.round(ACCOUNT_LIMITS.freshProofMs / 60_000);

function reauthenticationHint(user: StoredUser): string {
  const totp = user.totpEnabledAt !== null;
  if (user.passwordHash !== null)
    return `Confirm it is you: send your password (\`password\`)${totp ? ' or a code of your authenticator app (`code`)' : ''} with the request. A proof counts for ${minutes} minutes.`;
  if (totp)
    return `Confirm it is you: send a code of your authenticator app (\`code\`) with the request. A proof counts for ${minutes} minutes.`;
  return `Confirm it is you: sign in again (with your provider), then retry within ${minutes} minutes.`;
}

export const proofInput = z.object(proofFields).strict();
