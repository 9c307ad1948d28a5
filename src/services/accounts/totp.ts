// Turning the TOTP second factor on and off: enrolment starts with a secret (shown once, as text and as an otpauth://
// URI for a QR code) and ends when the user proves their app has it; turning it off needs the password or a code.
import { z } from 'zod';
import type { StoredUser } from '../../domain/account.js';
import { WrongSecretError } from '../../domain/account-errors.js';
import { ConflictError, NotFoundError, ValidationError } from '../../domain/errors.js';
import { parseInput, type ServiceContext } from '../context.js';
import { givenPasswordField, secondFactorField } from './account-fields.js';
import { verifyAccountPassword } from './password.js';
import { acceptSecondFactor, newTotpSecret, replaceRecoveryCodes, totpStep } from './second-factor.js';

/** Starts (or restarts) enrolment: a new pending secret, replacing one not confirmed yet. */
export async function beginTotp(ctx: ServiceContext, { userId }: { userId: string }): Promise<{ secret: string; uri: string }> {
  const user = await findUser(ctx, userId);
  if (user.totpEnabledAt !== null) throw new ConflictError('The second factor is already on; turn it off first to enrol another app.');
  const enrolment = newTotpSecret(user.email);
  await ctx.store.users.setTotp(userId, { secret: enrolment.secret, enabledAt: null }, ctx.clock.now());
  return enrolment;
}

export const totpConfirmInput = z.object({ code: z.string().trim().regex(/^\d{6}$/, { error: 'expected the 6-digit code your app shows' }) }).strict();

/** Turns the second factor on once a code of the pending secret is right; returns the recovery codes, shown this once. */
export async function confirmTotp(ctx: ServiceContext, input: z.input<typeof totpConfirmInput> & { userId: string }): Promise<{ recoveryCodes: string[] }> {
  const { code } = parseInput(totpConfirmInput, { code: input.code });
  const user = await findUser(ctx, input.userId);
  if (user.totpEnabledAt !== null) throw new ConflictError('The second factor is already on.');
  if (user.totpSecret === null) throw new ConflictError('Start the enrolment first (POST /api/v1/auth/totp).');
  const now = ctx.clock.now();
  const step = totpStep(user.totpSecret, code, now);
  if (step === null) throw new WrongSecretError('code', 'is not the code of the secret being enrolled (check the time on your device)');
  const secret = user.totpSecret;
  return ctx.store.transaction(async (store) => {
    // The confirming code counts as used: it cannot sign in afterwards.
    if (!(await store.users.acceptTotpStep(user.id, step))) throw new WrongSecretError('code', 'was used already; wait for the next one');
    await store.users.setTotp(user.id, { secret, enabledAt: now }, now);
    return { recoveryCodes: await replaceRecoveryCodes({ ...ctx, store }, user.id) };
  });
}

export const totpDisableInput = z
  .object({
    password: givenPasswordField().optional().describe('The account’s password; or send `code`.'),
    code: secondFactorField().optional().describe('A current TOTP code or an unused recovery code; or send `password`.'),
  })
  .strict();

/** Turns the second factor off (its secret and recovery codes are deleted), proven by the password or a code. */
export async function disableTotp(ctx: ServiceContext, input: z.input<typeof totpDisableInput> & { userId: string }): Promise<void> {
  const { password, code } = parseInput(totpDisableInput, { password: input.password, code: input.code });
  const user = await findUser(ctx, input.userId);
  if (user.totpEnabledAt === null) throw new ConflictError('The second factor is not on.');
  if (password === undefined && code === undefined) throw new ValidationError([{ path: 'password', message: 'expected your password or a code' }]);
  if (password !== undefined && !(await verifyAccountPassword(password, user.passwordHash))) throw new WrongSecretError('password', 'is not your password');
  if (password === undefined && code !== undefined && !(await acceptSecondFactor(ctx, user, code))) throw new WrongSecretError('code', 'is not right (or the recovery code was used)');
  await ctx.store.transaction(async (store) => {
    await store.users.setTotp(user.id, null, ctx.clock.now());
    await store.users.replaceRecoveryCodes(user.id, []);
  });
}

/** New recovery codes (the old ones stop working), shown this once. */
export async function regenerateRecoveryCodes(ctx: ServiceContext, { userId }: { userId: string }): Promise<{ recoveryCodes: string[] }> {
  const user = await findUser(ctx, userId);
  if (user.totpEnabledAt === null) throw new ConflictError('Recovery codes come with the second factor: turn it on first.');
  return { recoveryCodes: await replaceRecoveryCodes(ctx, userId) };
}

async function findUser(ctx: ServiceContext, userId: string): Promise<StoredUser> {
  const user = await ctx.store.users.findById(userId);
  if (!user) throw new NotFoundError('user', userId);
  return user;
}
