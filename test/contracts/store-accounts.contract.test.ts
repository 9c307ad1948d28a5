// Store contract, accounts: users (second factor, recovery codes, identities) and their sessions — what every dialect
// promises the accounts services.
import { beforeEach, expect, it } from 'vitest';
import { addUser, MINUTE, session } from './account-fixtures.js';
import { addOrganization, describeStore, NOW, ORG, rejectionOf } from './store-fixtures.js';

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
    expect(listed[1]).toEqual({
      id: 'usr_b',
      email: 'bea@example.com',
      name: 'User usr_b',
      hasPassword: true,
      totpEnabledAt: null,
      emailVerifiedAt: null,
      createdAt: NOW,
      updatedAt: NOW,
    });
    expect((await store().users.listByIds(['usr_b', 'usr_none'])).map((u) => u.id)).toEqual(['usr_b']);
    expect(await store().users.listByIds([])).toEqual([]);
  });

  it('refuses a second user with the same email as a unique violation', async () => {
    await addUser(store(), 'usr_a', { email: 'ada@example.com' });
    const error = await rejectionOf(addUser(store(), 'usr_b', { email: 'ada@example.com' }));
    expect(store().isUniqueViolation(error)).toBe(true);
    await addUser(store(), 'usr_c', { email: 'cy@example.com' });
    expect(
      store().isUniqueViolation(
        await rejectionOf(store().users.update('usr_c', { email: 'ada@example.com' }, NOW + 1)),
      ),
    ).toBe(true);
  });

  it('updates the name, the email and the password hash, each only when given', async () => {
    await addUser(store(), 'usr_a', { email: 'ada@example.com', passwordHash: 'old' });
    await store().users.update('usr_a', { name: 'Ada L.' }, NOW + 1);
    expect(await store().users.findById('usr_a')).toMatchObject({
      name: 'Ada L.',
      email: 'ada@example.com',
      passwordHash: 'old',
      updatedAt: NOW + 1,
    });
    await store().users.update('usr_a', { email: 'ada@example.org', passwordHash: null }, NOW + 2);
    expect(await store().users.findById('usr_a')).toMatchObject({
      name: 'Ada L.',
      email: 'ada@example.org',
      passwordHash: null,
      hasPassword: false,
    });
  });

  it('keeps when the address was verified: at creation, when it changes, or never', async () => {
    await store().users.insert(
      { id: 'usr_v', email: 'vera@example.com', name: 'Vera', passwordHash: null, emailVerifiedAt: NOW },
      NOW,
    );
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
    expect(await store().users.findById('usr_a')).toMatchObject({
      totpSecret: 'JBSWY3DPEHPK3PXP',
      totpEnabledAt: null,
    });
    await store().users.setTotp('usr_a', { secret: 'JBSWY3DPEHPK3PXP', enabledAt: NOW + 2 }, NOW + 2);
    expect(await store().users.findById('usr_a')).toMatchObject({
      totpSecret: 'JBSWY3DPEHPK3PXP',
      totpEnabledAt: NOW + 2,
    });
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
    const identity = {
      issuer: 'https://id.example.com',
      subject: 'sub-1',
      userId: 'usr_a',
      email: 'usr_a@example.com',
      createdAt: NOW,
    };
    await store().users.linkIdentity(identity);
    expect(await store().users.findIdentity('https://id.example.com', 'sub-1')).toEqual(identity);
    expect(await store().users.findIdentity('https://other.example.com', 'sub-1')).toBeUndefined();
    expect(
      store().isUniqueViolation(await rejectionOf(store().users.linkIdentity({ ...identity, email: 'x@example.com' }))),
    ).toBe(true);
  });

  it('deletes a user with their sessions, memberships, codes and identities', async () => {
    await addOrganization(store());
    await addUser(store(), 'usr_a');
    await store().sessions.insert(session('ses_a', 'usr_a'));
    await store().memberships.put({ organizationId: ORG.id, userId: 'usr_a', role: 'owner', createdAt: NOW });
    await store().users.replaceRecoveryCodes('usr_a', ['h1']);
    await store().users.linkIdentity({
      issuer: 'https://id.example.com',
      subject: 's',
      userId: 'usr_a',
      email: 'a@example.com',
      createdAt: NOW,
    });
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
    expect(await store().sessions.findActiveByHash('hash_ses_a', NOW + 90 * MINUTE)).toMatchObject({
      lastSeenAt: NOW + MINUTE,
      expiresAt: NOW + 120 * MINUTE,
    });
  });

  it("lists a user's unexpired sessions, most recently used first, without hashes", async () => {
    await store().sessions.insert(session('ses_old', 'usr_a', { lastSeenAt: NOW - 2 * MINUTE }));
    await store().sessions.insert(session('ses_new', 'usr_a', { lastSeenAt: NOW - MINUTE }));
    await store().sessions.insert(session('ses_gone', 'usr_a', { expiresAt: NOW }));
    await store().sessions.insert(session('ses_b', 'usr_b'));
    const listed = await store().sessions.listByUser('usr_a', NOW);
    expect(listed.map((s) => s.id)).toEqual(['ses_new', 'ses_old']);
    expect(listed[0]).toEqual({
      id: 'ses_new',
      userId: 'usr_a',
      createdAt: NOW,
      lastSeenAt: NOW - MINUTE,
      expiresAt: NOW + 60 * MINUTE,
      userAgent: 'Firefox',
      address: '10.0.0.1',
      provenAt: NOW,
    });
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
    for (let i = 1; i <= 4; i++)
      await store().sessions.insert(session(`ses_${i}`, 'usr_a', { lastSeenAt: NOW - (10 - i) * MINUTE }));
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
