// Turning the TOTP second factor on and off: enrolment starts with a secret (shown once, as text and as an otpauth://
// URI for a QR code) and ends when the user proves their app has it. Beginning it, turning it off and new recovery
// codes need a fresh proof (fresh-proof.ts): the password or a code, lately or with the request.
import { z } from 'zod';
import type { Session, StoredUser } from '../../domain/account.js';
import { WrongSecretError } from '../../domain/account-errors.js';
import { ConflictError, NotFoundError } from '../../domain/errors.js';
import { parseInput, type ServiceContext } from '../context.js';
import { type Proof, proofInput, requireFreshProof, type SecretGuard } from './fresh-proof.js';
import { newTotpSecret, replaceRecoveryCodes, totpStep } from './second-factor.js';

/**
 * Who asks: the signed-in user's session (its proof) and, when sent, a password or code proving it now, checked under
 * `guard` (the attempt limits).
 */
export type ProvenRequest = Proof & { userId: string; session: Session; guard?: SecretGuard | undefined };

/** Starts (or restarts) enrolment: a new pending secret, replacing one not confirmed yet. */
export async function beginTotp(ctx: ServiceContext, input: ProvenRequest): Promise<{ secret: string; uri: string }> {
  const proof = parseInput(proofInput, { password: input.password, code: input.code });
  const user = await findUser(ctx, input.userId);
  if (user.totpEnabledAt !== null)
    throw new ConflictError('The second factor is already on; turn it off first to enrol another app.');
  await requireFreshProof(ctx, { user, session: input.session, proof, guard: input.guard });
  const enrolment = newTotpSecret(user.email);
  await ctx.store.users.setTotp(user.id, { secret: enrolment.secret, enabledAt: null }, ctx.clock.now());
  return enrolment;
}

export const totpConfirmInput = z
  .object({
    code: z
      .string()
      .trim()
      .regex(/^\d{6}$/, { error: 'expected the 6-digit code your app shows' }),
  })
  .strict();

/** Turns the second factor on once a code of the pending secret is right; returns the recovery codes, shown this once. */
export async function confirmTotp(
  ctx: ServiceContext,
  input: z.input<typeof totpConfirmInput> & { userId: string },
): Promise<{ recoveryCodes: string[] }> {
  const { code } = parseInput(totpConfirmInput, { code: input.code });
  const user = await findUser(ctx, input.userId);
  if (user.totpEnabledAt !== null) throw new ConflictError('The second factor is already on.');
  if (user.totpSecret === null) throw new ConflictError('Start the enrolment first (POST /api/v1/auth/totp).');
  const now = ctx.clock.now();
  const step = totpStep(user.totpSecret, code, now);
  if (step === null)
    throw new WrongSecretError('code', 'is not the code of the secret being enrolled (check the time on your device)');
  const secret = user.totpSecret;
  return ctx.store.transaction(async (store) => {
    // The confirming code counts as used: it cannot sign in afterwards.
    if (!(await store.users.acceptTotpStep(user.id, step)))
      throw new WrongSecretError('code', 'was used already; wait for the next one');
    await store.users.setTotp(user.id, { secret, enabledAt: now }, now);
    return { recoveryCodes: await replaceRecoveryCodes({ ...ctx, store }, user.id) };
  });
}

/** Turns the second factor off (its secret and recovery codes are deleted), with a fresh proof. */
export async function disableTotp(ctx: ServiceContext, input: ProvenRequest): Promise<void> {
  const proof = parseInput(proofInput, { password: input.password, code: input.code });
  const user = await findUser(ctx, input.userId);
  if (user.totpEnabledAt === null) throw new ConflictError('The second factor is not on.');
  await requireFreshProof(ctx, { user, session: input.session, proof, guard: input.guard });
  await ctx.store.transaction(async (store) => {
    await store.users.setTotp(user.id, null, ctx.clock.now());
    await store.users.replaceRecoveryCodes(user.id, []);
  });
}

/** New recovery codes (the old ones stop working), shown this once; with a fresh proof. */
export async function regenerateRecoveryCodes(
  ctx: ServiceContext,
  input: ProvenRequest,
): Promise<{ recoveryCodes: string[] }> {
  const proof = parseInput(proofInput, { password: input.password, code: input.code });
  const user = await findUser(ctx, input.userId);
  if (user.totpEnabledAt === null)
    throw new ConflictError('Recovery codes come with the second factor: turn it on first.');
  await requireFreshProof(ctx, { user, session: input.session, proof, guard: input.guard });
  return { recoveryCodes: await replaceRecoveryCodes(ctx, user.id) };
}

async function findUser(ctx: ServiceContext, userId: string): Promise<StoredUser> {
  const user = await ctx.store.users.findById(userId);
  if (!user) throw new NotFoundError('user', userId);
  return user;
}
