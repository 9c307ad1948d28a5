// Secrets Warden issues (API keys, relay, push and session tokens, invitation and account links): generation, hashing and constant-time checks.
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

export type SecretKind = 'apiKey' | 'relayToken' | 'pushToken' | 'session' | 'invitation' | 'accountToken';

export const SECRET_PREFIX: Record<SecretKind, string> = {
  apiKey: 'wdn_',
  relayToken: 'wdr_',
  pushToken: 'wdp_',
  /** A browser session (the cookie's value). */
  session: 'wds_',
  /** An invitation link to an organization. */
  invitation: 'wdi_',
  /** A one-time account link: first-run setup, password reset. */
  accountToken: 'wdu_',
};

/** 24 random bytes = 192 bits, well above the 128 bits we promise. */
const SECRET_BYTES = 24;
/** How much of a secret is kept in clear to tell keys apart in lists ("wdn_Ab12Cd34"). */
const DISPLAY_PREFIX_CHARS = 8;

const SECRET_SHAPE = /^wd[nrpsiu]_[A-Za-z0-9_-]{16,128}$/;

export function generateSecret(kind: SecretKind): string {
  return SECRET_PREFIX[kind] + randomBytes(SECRET_BYTES).toString('base64url');
}

/** SHA-256 hex of a secret: what the store keeps. Secrets are high-entropy, so no salt or stretching is needed. */
export function hashSecret(secret: string): string {
  return createHash('sha256').update(secret, 'utf8').digest('hex');
}

/** Whether `secret` is of the given kind and well-formed; cheap rejection before any lookup. */
export function isSecretOfKind(kind: SecretKind, secret: string): boolean {
  return secret.startsWith(SECRET_PREFIX[kind]) && SECRET_SHAPE.test(secret);
}

/** Constant-time comparison of a presented secret with a stored hash. */
export function secretMatchesHash(secret: string, storedHash: string): boolean {
  const presented = Buffer.from(hashSecret(secret), 'hex');
  const stored = Buffer.from(storedHash, 'hex');
  return presented.length === stored.length && timingSafeEqual(presented, stored);
}

/** The public part shown in lists, e.g. `wdn_Ab12Cd34`. */
export function displayPrefix(secret: string): string {
  const underscore = secret.indexOf('_');
  return secret.slice(0, underscore + 1 + DISPLAY_PREFIX_CHARS);
}

/** Replaces every Warden secret in a text by its display prefix and an ellipsis, for logs and error messages. */
export function maskSecrets(text: string): string {
  return text.replace(/\b(wd[nrpsiu]_[A-Za-z0-9_-]{1,8})[A-Za-z0-9_-]*/g, '$1…');
}
