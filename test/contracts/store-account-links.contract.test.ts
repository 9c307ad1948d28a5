// Store contract, accounts: one-time account links (tokens and email links) and the server's secrets.
import { beforeEach, expect, it } from 'vitest';
import type { EmailLink } from '../../src/domain/account.js';
import { addUser, MINUTE } from './account-fixtures.js';
import { describeStore, NOW } from './store-fixtures.js';

describeStore('account tokens', (store) => {
  beforeEach(async () => {
    await addUser(store(), 'usr_a');
  });
  const token = (
    hash: string,
    overrides: Partial<{ purpose: 'setup' | 'password-reset'; userId: string | null; expiresAt: number }> = {},
  ) => ({
    hash,
    purpose: 'setup' as const,
    userId: null,
    createdAt: NOW,
    expiresAt: NOW + 60 * MINUTE,
    usedAt: null,
    ...overrides,
  });

  it('is used once, for its purpose, before it expires', async () => {
    await store().accountTokens.insert(token('t_reset', { purpose: 'password-reset', userId: 'usr_a' }));
    expect(await store().accountTokens.use('t_reset', 'setup', NOW)).toBeUndefined();
    expect(await store().accountTokens.use('t_reset', 'password-reset', NOW + 1)).toEqual({
      hash: 't_reset',
      purpose: 'password-reset',
      userId: 'usr_a',
      createdAt: NOW,
      expiresAt: NOW + 60 * MINUTE,
      usedAt: NOW + 1,
    });
    expect(await store().accountTokens.use('t_reset', 'password-reset', NOW + 2)).toBeUndefined();
    await store().accountTokens.insert(token('t_late', { expiresAt: NOW }));
    expect(await store().accountTokens.use('t_late', 'setup', NOW)).toBeUndefined();
    expect(await store().accountTokens.use('t_unknown', 'setup', NOW)).toBeUndefined();
  });

  it('deletes the unused tokens of one purpose only', async () => {
    await store().accountTokens.insert(token('t_setup_1'));
    await store().accountTokens.insert(token('t_setup_used'));
    await store().accountTokens.use('t_setup_used', 'setup', NOW);
    await store().accountTokens.insert(token('t_reset', { purpose: 'password-reset', userId: 'usr_a' }));
    await store().accountTokens.deleteUnused('setup');
    expect(await store().accountTokens.use('t_setup_1', 'setup', NOW)).toBeUndefined();
    expect(await store().accountTokens.use('t_reset', 'password-reset', NOW)).toBeDefined();
    // The used one stays until it expires (prune).
    expect(await store().accountTokens.prune(NOW + 60 * MINUTE)).toBe(2);
  });

  it('prunes expired tokens, used or not', async () => {
    await store().accountTokens.insert(token('t_gone', { expiresAt: NOW }));
    await store().accountTokens.insert(token('t_live', { expiresAt: NOW + 1 }));
    expect(await store().accountTokens.prune(NOW)).toBe(1);
    expect(await store().accountTokens.use('t_live', 'setup', NOW)).toBeDefined();
  });
});

describeStore('email links', (store) => {
  beforeEach(async () => {
    await addUser(store(), 'usr_a');
    await addUser(store(), 'usr_b');
  });
  const link = (hash: string, overrides: Partial<EmailLink> = {}): EmailLink => ({
    hash,
    purpose: 'email-change',
    userId: 'usr_a',
    email: 'new@example.com',
    name: null,
    passwordHash: null,
    invitationHash: null,
    createdAt: NOW,
    expiresAt: NOW + 60 * MINUTE,
    usedAt: null,
    ...overrides,
  });

  it('is used once, for its purpose, before it expires, and keeps what a sign-up needs', async () => {
    const signup = link('l_signup', {
      purpose: 'signup',
      userId: null,
      email: 'nia@example.com',
      name: 'Nia',
      passwordHash: 'scrypt$n',
      invitationHash: 'inv_hash',
    });
    await store().emailLinks.insert(signup);
    expect(await store().emailLinks.use('l_signup', 'email-change', NOW)).toBeUndefined();
    expect(await store().emailLinks.use('l_signup', 'signup', NOW + 1)).toEqual({ ...signup, usedAt: NOW + 1 });
    expect(await store().emailLinks.use('l_signup', 'signup', NOW + 2)).toBeUndefined();
    await store().emailLinks.insert(link('l_late', { expiresAt: NOW }));
    expect(await store().emailLinks.use('l_late', 'email-change', NOW)).toBeUndefined();
    expect(await store().emailLinks.use('l_unknown', 'email-change', NOW)).toBeUndefined();
  });

  it('lets one of concurrent uses of a link through', async () => {
    await store().emailLinks.insert(link('l_a'));
    const used = await Promise.all(Array.from({ length: 5 }, () => store().emailLinks.use('l_a', 'email-change', NOW)));
    expect(used.filter(Boolean)).toHaveLength(1);
  });

  it("lists when a user's links since a time were made, used or not, and deletes their unused ones only", async () => {
    await store().emailLinks.insert(link('l_old', { createdAt: NOW - 2 * 60 * MINUTE, expiresAt: NOW + 60 * MINUTE }));
    await store().emailLinks.insert(link('l_1'));
    await store().emailLinks.insert(link('l_2', { createdAt: NOW + 1 }));
    await store().emailLinks.insert(link('l_b', { userId: 'usr_b' }));
    await store().emailLinks.use('l_2', 'email-change', NOW + 2);
    expect(await store().emailLinks.createdForUserSince('usr_a', NOW - 60 * MINUTE)).toEqual([NOW, NOW + 1]);
    await store().emailLinks.deleteUnusedOfUser('usr_a');
    expect(await store().emailLinks.createdForUserSince('usr_a', 0)).toEqual([NOW + 1]);
    expect(await store().emailLinks.use('l_b', 'email-change', NOW)).toBeDefined();
  });

  it("prunes expired links, and goes with the user's account", async () => {
    await store().emailLinks.insert(link('l_gone', { expiresAt: NOW }));
    await store().emailLinks.insert(link('l_live', { userId: 'usr_b', expiresAt: NOW + 1 }));
    await store().emailLinks.insert(link('l_signup', { purpose: 'signup', userId: null, expiresAt: NOW + 1 }));
    expect(await store().emailLinks.prune(NOW)).toBe(1);
    await store().users.delete('usr_b');
    expect(await store().emailLinks.use('l_live', 'email-change', NOW)).toBeUndefined();
    expect(await store().emailLinks.use('l_signup', 'signup', NOW)).toBeDefined();
  });
});

describeStore('server secrets', (store) => {
  it('makes a secret once and gives the same one to every later (or concurrent) ask', async () => {
    let made = 0;
    const make = () => `secret-${++made}`;
    const first = await Promise.all([1, 2, 3].map(() => store().serverSecrets.getOrCreate('known-devices', make, NOW)));
    expect(new Set(first).size).toBe(1);
    expect(await store().serverSecrets.getOrCreate('known-devices', () => 'another', NOW + 1)).toBe(first[0]);
    expect(await store().serverSecrets.getOrCreate('other', () => 'other-secret', NOW)).toBe('other-secret');
  });

  it('stores a recorded value, replaces it, and reads nothing for a name never stored', async () => {
    expect(await store().serverSecrets.get('server-address')).toBeUndefined();
    await store().serverSecrets.put('server-address', 'http://localhost:18500', NOW);
    await store().serverSecrets.put('server-address', 'http://localhost:18501', NOW + 1);
    expect(await store().serverSecrets.get('server-address')).toBe('http://localhost:18501');
  });
});
