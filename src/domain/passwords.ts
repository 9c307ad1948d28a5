// Page passwords: people choose them, so they are stretched with scrypt and salted, unlike random tokens.
// scrypt runs on libuv's thread pool (crypto.scrypt), never on the event loop: a guess costs the server a thread for
// ~30 ms, not every other request's turn.
import { randomBytes, type ScryptOptions, scrypt, timingSafeEqual } from 'node:crypto';

const N = 16384;
const R = 8;
const P = 1;
const KEY_LENGTH = 32;
/** Stored parameters beyond these are not ours (or tampered with): refused rather than run at any cost. */
const MAX_N = 1 << 20;
const MAX_R = 32;
const MAX_P = 16;

/** The fewest characters a page password may have (config file and API). */
export const PAGE_PASSWORD_MIN_CHARS = 8;

function scryptKey(password: string, salt: Buffer, length: number, options: ScryptOptions): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    scrypt(password, salt, length, { ...options, maxmem: 256 * (options.N ?? N) * (options.r ?? R) }, (error, key) =>
      error ? reject(error) : resolve(key),
    );
  });
}

export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  const key = await scryptKey(password, salt, KEY_LENGTH, { N, r: R, p: P });
  return `scrypt$${N}$${R}$${P}$${salt.toString('base64url')}$${key.toString('base64url')}`;
}

export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const parts = stored.split('$');
  if (parts.length !== 6 || parts[0] !== 'scrypt') return false;
  const [, n, r, p, salt, key] = parts as [string, string, string, string, string, string];
  const params = { N: Number(n), r: Number(r), p: Number(p) };
  if (!(params.N > 1 && params.N <= MAX_N && params.r >= 1 && params.r <= MAX_R && params.p >= 1 && params.p <= MAX_P))
    return false;
  const expected = Buffer.from(key, 'base64url');
  if (expected.length === 0) return false;
  const actual = await scryptKey(password, Buffer.from(salt, 'base64url'), expected.length, params).catch(() => null);
  return actual !== null && actual.length === expected.length && timingSafeEqual(actual, expected);
}
