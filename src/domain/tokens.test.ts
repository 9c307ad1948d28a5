import { describe, expect, it } from 'vitest';
import { hashPassword, verifyPassword } from './passwords.js';
import {
  displayPrefix,
  generateSecret,
  hashSecret,
  isSecretOfKind,
  maskSecrets,
  type SecretKind,
  secretMatchesHash,
} from './tokens.js';

describe('secrets', () => {
  const kinds: [SecretKind, string][] = [
    ['apiKey', 'wdn_'],
    ['relayToken', 'wdr_'],
    ['pushToken', 'wdp_'],
  ];

  it.each(kinds)('generates %s secrets with the %s prefix and at least 128 random bits', (kind, prefix) => {
    const secret = generateSecret(kind);
    expect(secret.startsWith(prefix)).toBe(true);
    const randomPart = Buffer.from(secret.slice(prefix.length), 'base64url');
    expect(randomPart.length * 8).toBeGreaterThanOrEqual(128);
    expect(isSecretOfKind(kind, secret)).toBe(true);
  });

  it('never generates the same secret twice', () => {
    const seen = new Set(Array.from({ length: 2000 }, () => generateSecret('apiKey')));
    expect(seen.size).toBe(2000);
  });

  it('tells kinds apart and rejects malformed secrets', () => {
    expect(isSecretOfKind('apiKey', generateSecret('relayToken'))).toBe(false);
    expect(isSecretOfKind('pushToken', 'wdp_short')).toBe(false);
    expect(isSecretOfKind('pushToken', 'wdp_has spaces and more chars')).toBe(false);
  });

  it('stores a SHA-256 hash, not the secret, and verifies it', () => {
    const secret = generateSecret('apiKey');
    const hash = hashSecret(secret);
    expect(hash).toMatch(/^[0-9a-f]{64}$/);
    expect(hash).not.toContain(secret.slice(4));
    expect(secretMatchesHash(secret, hash)).toBe(true);
    expect(secretMatchesHash(generateSecret('apiKey'), hash)).toBe(false);
    expect(secretMatchesHash(secret, 'abc')).toBe(false);
  });

  it('keeps only a short display prefix', () => {
    const secret = generateSecret('relayToken');
    expect(displayPrefix(secret)).toBe(secret.slice(0, 12));
  });

  it('masks secrets inside text such as logged URLs', () => {
    const secret = generateSecret('pushToken');
    const masked = maskSecrets(`/api/push/${secret}?status=up`);
    expect(masked).toBe(`/api/push/${secret.slice(0, 12)}…?status=up`);
    expect(masked).not.toContain(secret);
  });
});

describe('page passwords', () => {
  it('are salted and stretched, and verify only the right password', async () => {
    const a = await hashPassword('correct horse');
    const b = await hashPassword('correct horse');
    expect(a).not.toBe(b);
    expect(a.startsWith('scrypt$')).toBe(true);
    expect(await verifyPassword('correct horse', a)).toBe(true);
    expect(await verifyPassword('correct horsf', a)).toBe(false);
    expect(await verifyPassword('correct horse', 'garbage')).toBe(false);
  });

  it('refuse stored parameters beyond what Warden writes instead of running them', async () => {
    const [, , r, p, salt, key] = (await hashPassword('correct horse')).split('$');
    expect(await verifyPassword('correct horse', `scrypt$${1 << 30}$${r}$${p}$${salt}$${key}`)).toBe(false);
    expect(await verifyPassword('correct horse', `scrypt$1000$${r}$${p}$${salt}$${key}`)).toBe(false);
  });

  it('hash off the event loop: a timer fires while one is computed', async () => {
    let ticks = 0;
    const timer = setInterval(() => ticks++, 0);
    try {
      await Promise.all(Array.from({ length: 8 }, () => hashPassword('correct horse')));
    } finally {
      clearInterval(timer);
    }
    expect(ticks).toBeGreaterThan(0);
  });
});
