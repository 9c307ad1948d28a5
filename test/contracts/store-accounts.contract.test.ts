// Store contract, accounts: users (second factor, recovery codes, identities), sessions, memberships, invitations and
// one-time account links — what every dialect promises the accounts services.
import { beforeEach, expect, it } from 'vitest';
import type { EmailLink, Invitation, Session } from '../../src/domain/account.js';
import type { Store } from '../../src/store/index.js';
import { addOrganization, describeStore, NOW, ORG, OTHER_ORG, rejectionOf } from './store-fixtures.js';

const MINUTE = 60_000;

async function addUser(store: Store, id: string, overrides: { email?: string; name?: string; passwordHash?: string | null } = {}, now = NOW): Promise<string> {
  await store.users.insert({ id, email: overrides.email ?? `${id}@example.com`, name: overrides.name ?? `User ${id}`, passwordHash: overrides.passwordHash ?? null }, now);
  return id;
}

function session(id: string, userId: string, overrides: Partial<Session> = {}): Session & { hash: string } {
  return { id, userId, hash: `hash_${id}`, createdAt: NOW, lastSeenAt: NOW, expiresAt: NOW + 60 * MINUTE, userAgent: 'Firefox', address: '10.0.0.1', provenAt: NOW, ...overrides };
}

function invitation(id: string, overrides: Partial<Invitation> = {}): Invitation & { hash: string } {
  return {
    id,
    organizationId: ORG.id,
    email: null,
    role: 'editor',
    createdBy: null,
    createdAt: NOW,
    expiresAt: NOW + 60 * MINUTE,
    acceptedAt: null,
    acceptedBy: null,
    revokedAt: null,
    hash: `hash_${id}`,
    ...overrides,
  };
}

describeStore('users', (store) => {
  it('stores a user and finds them by id and by email, with what authentication reads', async () => {
    await addUser(store(), 'usr_a', { email: 'ada@example.com', name: 'Ada', passwordHash: 'scrypt$x' });
    const expected = {
      id: 'usr_a',
      email: 'ada@example.com',
      name: 'Ada',
      hasPassword: true,
      totpEnabledAt: null,
      emailVerifiedAt: null,
      createdAt: NOW,
      updatedAt: NOW,
      passwordHash: 'scrypt$x',
      totpSecret: null,
    };
    expect(await store().users.findById('usr_a')).toEqual(expected);
    expect(await store().users.findByEmail('ada@example.com')).toEqual(expected);
    expect(await store().users.findByEmail('ADA@example.com')).toBeUndefined();
    expect(await store().users.findById('usr_none')).toBeUndefined();
  });

  it('counts and lists users (by email, without secrets), and lists them by id', async () => {
    expect(await store().users.count()).toBe(0);
    await addUser(store(), 'usr_b', { email: 'bea@example.com', passwordHash: 'scrypt$y' });
    await addUser(store(), 'usr_a', { email: 'ada@example.com' });
    expect(await store().users.count()).toBe(2);
    const listed = await store().users.list();
    expect(listed.map((u) => u.email)).toEqual(['ada@example.com', 'bea@example.com']);
    expect(listed[1]).toEqual({ id: 'usr_b', email: 'bea@example.com', name: 'User usr_b', hasPassword: true, totpEnabledAt: null, emailVerifiedAt: null, createdAt: NOW, updatedAt: NOW });
    expect((await store().users.listByIds(['usr_b', 'usr_none'])).map((u) => u.id)).toEqual(['usr_b']);
    expect(await store().users.listByIds([])).toEqual([]);
  });

  it('refuses a second user with the same email as a unique violation', async () => {
    await addUser(store(), 'usr_a', { email: 'ada@example.com' });
    const error = await rejectionOf(addUser(store(), 'usr_b', { email: 'ada@example.com' }));
    expect(store().isUniqueViolation(error)).toBe(true);
    await addUser(store(), 'usr_c', { email: 'cy@example.com' });
    expect(store().isUniqueViolation(await rejectionOf(store().users.update('usr_c', { email: 'ada@example.com' }, NOW + 1)))).toBe(true);
  });

  it('updates the name, the email and the password hash, each only when given', async () => {
    await addUser(store(), 'usr_a', { email: 'ada@example.com', passwordHash: 'old' });
    await store().users.update('usr_a', { name: 'Ada L.' }, NOW + 1);
    expect(await store().users.findById('usr_a')).toMatchObject({ name: 'Ada L.', email: 'ada@example.com', passwordHash: 'old', updatedAt: NOW + 1 });
    await store().users.update('usr_a', { email: 'ada@example.org', passwordHash: null }, NOW + 2);
    expect(await store().users.findById('usr_a')).toMatchObject({ name: 'Ada L.', email: 'ada@example.org', passwordHash: null, hasPassword: false });
  });

  it('keeps when the address was verified: at creation, when it changes, or never', async () => {
    await store().users.insert({ id: 'usr_v', email: 'vera@example.com', name: 'Vera', passwordHash: null, emailVerifiedAt: NOW }, NOW);
    await addUser(store(), 'usr_u', { email: 'ursula@example.com' });
    expect(await store().users.findById('usr_v')).toMatchObject({ emailVerifiedAt: NOW });
    expect(await store().users.findById('usr_u')).toMatchObject({ emailVerifiedAt: null });
    await store().users.update('usr_u', { email: 'ursula@example.org', emailVerifiedAt: NOW + 5 }, NOW + 5);
    expect(await store().users.findByEmail('ursula@example.org')).toMatchObject({ emailVerifiedAt: NOW + 5 });
    await store().users.update('usr_v', { name: 'Vera V.' }, NOW + 6);
    expect(await store().users.findById('usr_v')).toMatchObject({ emailVerifiedAt: NOW });
    await store().users.update('usr_v', { emailVerifiedAt: null }, NOW + 7);
    expect((await store().users.list()).find((u) => u.id === 'usr_v')).toMatchObject({ emailVerifiedAt: null });
  });

  it('keeps a pending TOTP secret, then a confirmed one, and turns it off', async () => {
    await addUser(store(), 'usr_a');
    await store().users.setTotp('usr_a', { secret: 'JBSWY3DPEHPK3PXP', enabledAt: null }, NOW + 1);
    expect(await store().users.findById('usr_a')).toMatchObject({ totpSecret: 'JBSWY3DPEHPK3PXP', totpEnabledAt: null });
    await store().users.setTotp('usr_a', { secret: 'JBSWY3DPEHPK3PXP', enabledAt: NOW + 2 }, NOW + 2);
    expect(await store().users.findById('usr_a')).toMatchObject({ totpSecret: 'JBSWY3DPEHPK3PXP', totpEnabledAt: NOW + 2 });
    await store().users.setTotp('usr_a', null, NOW + 3);
    expect(await store().users.findById('usr_a')).toMatchObject({ totpSecret: null, totpEnabledAt: null });
  });

  it('accepts each TOTP step once and only later ones after it, per user; a new secret starts afresh', async () => {
    await addUser(store(), 'usr_a');
    await addUser(store(), 'usr_b');
    await store().users.setTotp('usr_a', { secret: 'JBSWY3DPEHPK3PXP', enabledAt: NOW }, NOW);
    // Steps are about 5.9e7 now: past 2^31, so the column must hold more than an int.
    const step = Math.floor(NOW / 30_000) + 2 ** 32;
    expect(await store().users.acceptTotpStep('usr_a', step)).toBe(true);
    expect(await store().users.acceptTotpStep('usr_a', step)).toBe(false);
    expect(await store().users.acceptTotpStep('usr_a', step - 1)).toBe(false);
    expect(await store().users.acceptTotpStep('usr_b', step)).toBe(true);
    expect(await store().users.acceptTotpStep('usr_a', step + 1)).toBe(true);
    // Confirming keeps the step; turning it off (or a new pending secret) forgets it.
    await store().users.setTotp('usr_a', { secret: 'JBSWY3DPEHPK3PXP', enabledAt: NOW + 1 }, NOW + 1);
    expect(await store().users.acceptTotpStep('usr_a', step + 1)).toBe(false);
    await store().users.setTotp('usr_a', null, NOW + 2);
    expect(await store().users.acceptTotpStep('usr_a', step)).toBe(true);
    expect(await store().users.acceptTotpStep('usr_none', step + 9)).toBe(false);
  });

  it('lets only one of two concurrent acceptances of the same TOTP step through', async () => {
    await addUser(store(), 'usr_a');
    const step = Math.floor(NOW / 30_000);
    const results = await Promise.all(Array.from({ length: 6 }, () => store().users.acceptTotpStep('usr_a', step)));
    expect(results.filter(Boolean)).toHaveLength(1);
  });

  it('uses each recovery code once, only for its user, and replaces them all at once', async () => {
    await addUser(store(), 'usr_a');
    await addUser(store(), 'usr_b');
    await store().users.replaceRecoveryCodes('usr_a', ['h1', 'h2', 'h3']);
    await store().users.replaceRecoveryCodes('usr_b', ['h9']);
    expect(await store().users.unusedRecoveryCodes('usr_a')).toBe(3);
    expect(await store().users.useRecoveryCode('usr_a', 'h2', NOW)).toBe(true);
    expect(await store().users.useRecoveryCode('usr_a', 'h2', NOW)).toBe(false);
    expect(await store().users.useRecoveryCode('usr_a', 'h9', NOW)).toBe(false);
    expect(await store().users.useRecoveryCode('usr_a', 'unknown', NOW)).toBe(false);
    expect(await store().users.unusedRecoveryCodes('usr_a')).toBe(2);
    await store().users.replaceRecoveryCodes('usr_a', ['n1', 'n2']);
    expect(await store().users.useRecoveryCode('usr_a', 'h1', NOW)).toBe(false);
    expect(await store().users.unusedRecoveryCodes('usr_a')).toBe(2);
    await store().users.replaceRecoveryCodes('usr_a', []);
    expect(await store().users.unusedRecoveryCodes('usr_a')).toBe(0);
    expect(await store().users.unusedRecoveryCodes('usr_b')).toBe(1);
  });

  it('links an OpenID Connect identity and finds it by issuer and subject', async () => {
    await addUser(store(), 'usr_a');
    const identity = { issuer: 'https://id.example.com', subject: 'sub-1', userId: 'usr_a', email: 'usr_a@example.com', createdAt: NOW };
    await store().users.linkIdentity(identity);
    expect(await store().users.findIdentity('https://id.example.com', 'sub-1')).toEqual(identity);
    expect(await store().users.findIdentity('https://other.example.com', 'sub-1')).toBeUndefined();
    expect(store().isUniqueViolation(await rejectionOf(store().users.linkIdentity({ ...identity, email: 'x@example.com' })))).toBe(true);
  });

  it('deletes a user with their sessions, memberships, codes and identities', async () => {
    await addOrganization(store());
    await addUser(store(), 'usr_a');
    await store().sessions.insert(session('ses_a', 'usr_a'));
    await store().memberships.put({ organizationId: ORG.id, userId: 'usr_a', role: 'owner', createdAt: NOW });
    await store().users.replaceRecoveryCodes('usr_a', ['h1']);
    await store().users.linkIdentity({ issuer: 'https://id.example.com', subject: 's', userId: 'usr_a', email: 'a@example.com', createdAt: NOW });
    await store().users.delete('usr_a');
    expect(await store().users.findById('usr_a')).toBeUndefined();
    expect(await store().sessions.findActiveByHash('hash_ses_a', NOW)).toBeUndefined();
    expect(await store().memberships.listByOrganization(ORG.id)).toEqual([]);
    expect(await store().users.findIdentity('https://id.example.com', 's')).toBeUndefined();
  });
});

describeStore('sessions', (store) => {
  beforeEach(async () => {
    await addUser(store(), 'usr_a');
    await addUser(store(), 'usr_b');
  });

  it('finds an unexpired session by its hash, and none once it expired', async () => {
    const stored = session('ses_a', 'usr_a');
    await store().sessions.insert(stored);
    expect(await store().sessions.findActiveByHash('hash_ses_a', NOW)).toEqual(stored);
    expect(await store().sessions.findActiveByHash('hash_ses_a', stored.expiresAt)).toBeUndefined();
    expect(await store().sessions.findActiveByHash('hash_other', NOW)).toBeUndefined();
  });

  it('records a use: last seen and the end move forward', async () => {
    await store().sessions.insert(session('ses_a', 'usr_a'));
    await store().sessions.touch('ses_a', NOW + MINUTE, NOW + 120 * MINUTE);
    expect(await store().sessions.findActiveByHash('hash_ses_a', NOW + 90 * MINUTE)).toMatchObject({ lastSeenAt: NOW + MINUTE, expiresAt: NOW + 120 * MINUTE });
  });

  it("lists a user's unexpired sessions, most recently used first, without hashes", async () => {
    await store().sessions.insert(session('ses_old', 'usr_a', { lastSeenAt: NOW - 2 * MINUTE }));
    await store().sessions.insert(session('ses_new', 'usr_a', { lastSeenAt: NOW - MINUTE }));
    await store().sessions.insert(session('ses_gone', 'usr_a', { expiresAt: NOW }));
    await store().sessions.insert(session('ses_b', 'usr_b'));
    const listed = await store().sessions.listByUser('usr_a', NOW);
    expect(listed.map((s) => s.id)).toEqual(['ses_new', 'ses_old']);
    expect(listed[0]).toEqual({ id: 'ses_new', userId: 'usr_a', createdAt: NOW, lastSeenAt: NOW - MINUTE, expiresAt: NOW + 60 * MINUTE, userAgent: 'Firefox', address: '10.0.0.1', provenAt: NOW });
  });

  it('records when the session last proved its user, from never (null) on', async () => {
    const { provenAt: _p, ...unproven } = session('ses_a', 'usr_a');
    await store().sessions.insert(unproven);
    expect(await store().sessions.findActiveByHash('hash_ses_a', NOW)).toMatchObject({ provenAt: null });
    await store().sessions.prove('ses_a', NOW + 2 * MINUTE);
    expect(await store().sessions.findActiveByHash('hash_ses_a', NOW)).toMatchObject({ provenAt: NOW + 2 * MINUTE });
    expect((await store().sessions.listByUser('usr_a', NOW))[0]).toMatchObject({ provenAt: NOW + 2 * MINUTE });
  });

  it("deletes one of the user's sessions, never another user's", async () => {
    await store().sessions.insert(session('ses_a', 'usr_a'));
    expect(await store().sessions.delete('usr_b', 'ses_a')).toBe(false);
    expect(await store().sessions.delete('usr_a', 'ses_a')).toBe(true);
    expect(await store().sessions.delete('usr_a', 'ses_a')).toBe(false);
    expect(await store().sessions.findActiveByHash('hash_ses_a', NOW)).toBeUndefined();
  });

  it('deletes every session of a user, but the one kept', async () => {
    for (const id of ['ses_1', 'ses_2', 'ses_3']) await store().sessions.insert(session(id, 'usr_a'));
    await store().sessions.insert(session('ses_b', 'usr_b'));
    expect(await store().sessions.deleteAllOfUser('usr_a', 'ses_2')).toBe(2);
    expect((await store().sessions.listByUser('usr_a', NOW)).map((s) => s.id)).toEqual(['ses_2']);
    expect(await store().sessions.deleteAllOfUser('usr_a')).toBe(1);
    expect(await store().sessions.listByUser('usr_b', NOW)).toHaveLength(1);
  });

  it('trims the least recently used sessions of a user past the cap', async () => {
    for (let i = 1; i <= 4; i++) await store().sessions.insert(session(`ses_${i}`, 'usr_a', { lastSeenAt: NOW - (10 - i) * MINUTE }));
    await store().sessions.insert(session('ses_b', 'usr_b', { lastSeenAt: NOW - 60 * MINUTE }));
    await store().sessions.trim('usr_a', 2);
    expect((await store().sessions.listByUser('usr_a', NOW)).map((s) => s.id)).toEqual(['ses_4', 'ses_3']);
    expect(await store().sessions.listByUser('usr_b', NOW)).toHaveLength(1);
  });

  it('prunes expired sessions', async () => {
    await store().sessions.insert(session('ses_gone', 'usr_a', { expiresAt: NOW }));
    await store().sessions.insert(session('ses_live', 'usr_a', { expiresAt: NOW + 1 }));
    expect(await store().sessions.prune(NOW)).toBe(1);
    expect((await store().sessions.listByUser('usr_a', NOW)).map((s) => s.id)).toEqual(['ses_live']);
  });
});

describeStore('memberships', (store) => {
  beforeEach(async () => {
    await addOrganization(store(), ORG);
    await addOrganization(store(), { ...OTHER_ORG, name: 'Beta' });
    await addUser(store(), 'usr_a');
    await addUser(store(), 'usr_b');
  });

  it('creates a membership, then changes its role keeping when it began', async () => {
    await store().memberships.put({ organizationId: ORG.id, userId: 'usr_a', role: 'viewer', createdAt: NOW });
    expect(await store().memberships.find(ORG.id, 'usr_a')).toEqual({ organizationId: ORG.id, userId: 'usr_a', role: 'viewer', createdAt: NOW });
    await store().memberships.put({ organizationId: ORG.id, userId: 'usr_a', role: 'admin', createdAt: NOW + 5 });
    expect(await store().memberships.find(ORG.id, 'usr_a')).toEqual({ organizationId: ORG.id, userId: 'usr_a', role: 'admin', createdAt: NOW });
    expect(await store().memberships.find(OTHER_ORG.id, 'usr_a')).toBeUndefined();
  });

  it("lists an organization's members oldest first, and a user's organizations by name", async () => {
    await store().memberships.put({ organizationId: ORG.id, userId: 'usr_b', role: 'owner', createdAt: NOW + 1 });
    await store().memberships.put({ organizationId: ORG.id, userId: 'usr_a', role: 'editor', createdAt: NOW });
    await store().memberships.put({ organizationId: OTHER_ORG.id, userId: 'usr_a', role: 'viewer', createdAt: NOW });
    expect((await store().memberships.listByOrganization(ORG.id)).map((m) => m.userId)).toEqual(['usr_a', 'usr_b']);
    const mine = await store().memberships.listByUser('usr_a');
    // Acme before Beta.
    expect(mine.map((m) => `${m.organization.key}:${m.role}`)).toEqual(['acme:editor', 'globex:viewer']);
    expect(mine[0]?.organization).toEqual({ ...ORG, probePrivateTargets: null, managedBy: 'api', createdAt: NOW });
    expect(await store().memberships.listByUser('usr_none')).toEqual([]);
  });

  it('counts members by role and deletes a membership', async () => {
    await store().memberships.put({ organizationId: ORG.id, userId: 'usr_a', role: 'owner', createdAt: NOW });
    await store().memberships.put({ organizationId: ORG.id, userId: 'usr_b', role: 'owner', createdAt: NOW });
    expect(await store().memberships.countByRole(ORG.id, 'owner')).toBe(2);
    expect(await store().memberships.countByRole(ORG.id, 'admin')).toBe(0);
    expect(await store().memberships.delete(ORG.id, 'usr_a')).toBe(true);
    expect(await store().memberships.delete(ORG.id, 'usr_a')).toBe(false);
    expect(await store().memberships.countByRole(ORG.id, 'owner')).toBe(1);
  });
});

describeStore('invitations', (store) => {
  beforeEach(async () => {
    await addOrganization(store(), ORG);
    await addOrganization(store(), OTHER_ORG);
    await addUser(store(), 'usr_a');
  });

  it('finds an invitation by its hash, whatever its state', async () => {
    const stored = invitation('inv_a', { email: 'ada@example.com', role: 'admin', createdBy: 'usr_a' });
    await store().invitations.insert(stored);
    expect(await store().invitations.findByHash('hash_inv_a')).toEqual(stored);
    await store().invitations.revoke(ORG.id, 'inv_a', NOW + 1);
    expect(await store().invitations.findByHash('hash_inv_a')).toMatchObject({ revokedAt: NOW + 1 });
    expect(await store().invitations.findByHash('hash_none')).toBeUndefined();
  });

  it('lists pending invitations newest first (expired ones too) and counts the unexpired ones', async () => {
    await store().invitations.insert(invitation('inv_old', { createdAt: NOW - 2 * MINUTE, expiresAt: NOW }));
    await store().invitations.insert(invitation('inv_new', { createdAt: NOW - MINUTE }));
    await store().invitations.insert(invitation('inv_taken'));
    await store().invitations.insert(invitation('inv_gone'));
    await store().invitations.insert(invitation('inv_other', { organizationId: OTHER_ORG.id }));
    await store().invitations.accept('inv_taken', 'usr_a', NOW);
    await store().invitations.revoke(ORG.id, 'inv_gone', NOW);
    expect((await store().invitations.listPending(ORG.id)).map((i) => i.id)).toEqual(['inv_new', 'inv_old']);
    expect(await store().invitations.countPending(ORG.id, NOW)).toBe(1);
  });

  it('is accepted once, and never once revoked or expired', async () => {
    await store().invitations.insert(invitation('inv_a'));
    expect(await store().invitations.accept('inv_a', 'usr_a', NOW)).toBe(true);
    expect(await store().invitations.findByHash('hash_inv_a')).toMatchObject({ acceptedAt: NOW, acceptedBy: 'usr_a' });
    expect(await store().invitations.accept('inv_a', 'usr_a', NOW)).toBe(false);
    await store().invitations.insert(invitation('inv_expired', { expiresAt: NOW }));
    expect(await store().invitations.accept('inv_expired', 'usr_a', NOW)).toBe(false);
    await store().invitations.insert(invitation('inv_revoked'));
    await store().invitations.revoke(ORG.id, 'inv_revoked', NOW);
    expect(await store().invitations.accept('inv_revoked', 'usr_a', NOW)).toBe(false);
  });

  it('is revoked only while pending, and only by its organization', async () => {
    await store().invitations.insert(invitation('inv_a'));
    expect(await store().invitations.revoke(OTHER_ORG.id, 'inv_a', NOW)).toBe(false);
    expect(await store().invitations.revoke(ORG.id, 'inv_a', NOW)).toBe(true);
    expect(await store().invitations.revoke(ORG.id, 'inv_a', NOW)).toBe(false);
    await store().invitations.insert(invitation('inv_b'));
    await store().invitations.accept('inv_b', 'usr_a', NOW);
    expect(await store().invitations.revoke(ORG.id, 'inv_b', NOW)).toBe(false);
  });
});

describeStore('account tokens', (store) => {
  beforeEach(async () => {
    await addUser(store(), 'usr_a');
  });
  const token = (hash: string, overrides: Partial<{ purpose: 'setup' | 'password-reset'; userId: string | null; expiresAt: number }> = {}) => ({
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
    const signup = link('l_signup', { purpose: 'signup', userId: null, email: 'nia@example.com', name: 'Nia', passwordHash: 'scrypt$n', invitationHash: 'inv_hash' });
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
