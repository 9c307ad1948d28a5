// The setup code: eight characters from an alphabet without look-alikes (no 0/O, 1/I/L), shown as ABCD-EFGH, that the
// server's start-up log and `warden setup-code` print while no account exists. The dashboard's setup screen (/app)
// takes it to create the first owner. Single use, expires, only its hash is stored (as a setup token); wrong guesses
// are counted by the sign-in attempt limits (the HTTP route).
import { randomInt } from 'node:crypto';
import { ACCOUNT_LIMITS } from '../../domain/account.js';
import { hashSecret } from '../../domain/tokens.js';
import type { ServiceContext } from '../context.js';

/** 31 characters that read aloud and copy by hand without doubt. */
export const SETUP_CODE_ALPHABET = '23456789ABCDEFGHJKMNPQRSTUVWXYZ';
const CODE_LENGTH = 8;

/** A fresh code, grouped as ABCD-EFGH (about 40 bits). */
export function generateSetupCode(): string {
  let code = '';
  for (let i = 0; i < CODE_LENGTH; i++) code += SETUP_CODE_ALPHABET[randomInt(SETUP_CODE_ALPHABET.length)];
  return `${code.slice(0, 4)}-${code.slice(4)}`;
}

/** What a typed code is compared as: upper case, without spaces and dashes. Null when it cannot be a code at all. */
export function normalizeSetupCode(typed: string): string | null {
  const bare = typed.toUpperCase().replace(/[\s-]+/g, '');
  if (bare.length !== CODE_LENGTH) return null;
  for (const ch of bare) if (!SETUP_CODE_ALPHABET.includes(ch)) return null;
  return bare;
}

/** The stored hash of a code (a setup token of its own kind: the prefix keeps it apart from a link's token). */
export function setupCodeHash(normalized: string): string {
  return hashSecret(`setup-code:${normalized}`);
}

/**
 * With no user yet: a new setup code (the earlier code and setup link stop working), valid
 * ACCOUNT_LIMITS.setupTokenLifetimeMs; with users: null. The code is returned once; the store keeps its hash.
 */
export async function openSetupCode(ctx: ServiceContext): Promise<{ code: string; expiresAt: number } | null> {
  if ((await ctx.store.users.count()) > 0) return null;
  const now = ctx.clock.now();
  const code = generateSetupCode();
  const expiresAt = now + ACCOUNT_LIMITS.setupTokenLifetimeMs;
  await ctx.store.transaction(async (store) => {
    await store.accountTokens.deleteUnused('setup');
    await store.accountTokens.insert({
      hash: setupCodeHash(normalizeSetupCode(code) as string),
      purpose: 'setup',
      userId: null,
      createdAt: now,
      expiresAt,
      usedAt: null,
    });
  });
  return { code, expiresAt };
}
