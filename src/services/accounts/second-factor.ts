// The second factor: TOTP (RFC 6238, 6 digits every 30 s, as authenticator apps make them) and one-time recovery codes,
// kept only as SHA-256 hashes (80 random bits each: too many to try, even from a copy of the database).
import { randomBytes } from 'node:crypto';
import { Secret, TOTP } from 'otpauth';
import { ACCOUNT_LIMITS, type StoredUser } from '../../domain/account.js';
import { hashSecret } from '../../domain/tokens.js';
import type { ServiceContext } from '../context.js';

/** The name authenticator apps show for the account. */
export const TOTP_ISSUER = 'Warden';
/** Codes of the period before and after the current one are accepted too (clocks drift; people type slowly). */
const TOTP_WINDOW = 1;
/** otpauth's default period, which authenticator apps assume too. */
const TOTP_PERIOD_SEC = 30;
const RECOVERY_ALPHABET = 'abcdefghjkmnpqrstuvwxyz23456789';
const RECOVERY_GROUPS = 4;
const RECOVERY_GROUP_CHARS = 4;

/** A new TOTP secret (160 bits, base32) and the otpauth:// URI an authenticator app reads from a QR code. */
export function newTotpSecret(email: string): { secret: string; uri: string } {
  const secret = new Secret({ size: 20 }).base32;
  return { secret, uri: totpFor(secret, email).toString() };
}

/** The time step (30 s period since the epoch) whose TOTP of `secret` is `code`, looked for at `now` ± one period; null when none. */
export function totpStep(secret: string, code: string, now: number): number | null {
  const token = code.replace(/\s+/g, '');
  if (!/^\d{6}$/.test(token)) return null;
  const delta = TOTP.validate({ token, secret: Secret.fromBase32(secret), timestamp: now, window: TOTP_WINDOW });
  return delta === null ? null : Math.floor(now / 1000 / TOTP_PERIOD_SEC) + delta;
}

/**
 * Accepts a TOTP code once: its step must be later than the last one the user's codes were accepted at, recorded in
 * the same statement that checks it, so a code seen over a shoulder or replayed (even concurrently) is refused.
 */
export async function acceptTotp(ctx: ServiceContext, userId: string, secret: string, code: string): Promise<boolean> {
  const step = totpStep(secret, code, ctx.clock.now());
  return step !== null && ctx.store.users.acceptTotpStep(userId, step);
}

/**
 * Whether `code` is the user's current TOTP not used before, or one of their unused recovery codes (either is then
 * used up). A user without a second factor has no code that matches.
 */
export async function acceptSecondFactor(ctx: ServiceContext, user: StoredUser, code: string): Promise<boolean> {
  if (user.totpEnabledAt === null || user.totpSecret === null) return false;
  if (/^\s*\d{6}\s*$/.test(code)) return acceptTotp(ctx, user.id, user.totpSecret, code);
  // A malformed recovery code is looked up all the same: its hash matches nothing.
  // biome-ignore lint/correctness/useHookAtTopLevel: a store method named "use", not a React hook.
  return ctx.store.users.useRecoveryCode(user.id, hashSecret(normalizeRecoveryCode(code)), ctx.clock.now());
}

/** Replaces the user's recovery codes with ACCOUNT_LIMITS.recoveryCodes new ones, returned this once. */
export async function replaceRecoveryCodes(ctx: ServiceContext, userId: string): Promise<string[]> {
  const codes = Array.from({ length: ACCOUNT_LIMITS.recoveryCodes }, newRecoveryCode);
  await ctx.store.users.replaceRecoveryCodes(
    userId,
    codes.map((code) => hashSecret(normalizeRecoveryCode(code))),
  );
  return codes;
}

function totpFor(secret: string, email: string): TOTP {
  return new TOTP({ issuer: TOTP_ISSUER, label: email, secret: Secret.fromBase32(secret) });
}

/** `abcd-efgh-jkmn-pqrs`: 16 characters of a 31-letter alphabet without look-alikes (about 80 bits). */
function newRecoveryCode(): string {
  const length = RECOVERY_GROUPS * RECOVERY_GROUP_CHARS;
  const bytes = randomBytes(length * 2);
  // Two bytes per character keep the modulo bias below 0.05%.
  const chars = Array.from(
    { length },
    (_, i) => RECOVERY_ALPHABET[bytes.readUInt16BE(i * 2) % RECOVERY_ALPHABET.length],
  );
  return Array.from({ length: RECOVERY_GROUPS }, (_, g) =>
    chars.slice(g * RECOVERY_GROUP_CHARS, (g + 1) * RECOVERY_GROUP_CHARS).join(''),
  ).join('-');
}

/** As typed: any case, with or without dashes and spaces. */
function normalizeRecoveryCode(code: string): string {
  return code.toLowerCase().replace(/[\s-]+/g, '');
}
