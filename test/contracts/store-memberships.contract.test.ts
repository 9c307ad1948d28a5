// Store contract, accounts: memberships of organizations and invitations to them.
import { beforeEach, expect, it } from 'vitest';
import { addUser, invitation, MINUTE } from './account-fixtures.js';
import { addOrganization, describeStore, NOW, ORG, OTHER_ORG } from './store-fixtures.js';

describeStore('memberships', (store) => {
  beforeEach(async () => {
    await addOrganization(store(), ORG);
    await addOrganization(store(), { ...OTHER_ORG, name: 'Beta' });
    await addUser(store(), 'usr_a');
    await addUser(store(), 'usr_b');
  });

  it('creates a membership, then changes its role keeping when it began', async () => {
    await store().memberships.put({ organizationId: ORG.id, userId: 'usr_a', role: 'viewer', createdAt: NOW });
    expect(await store().memberships.find(ORG.id, 'usr_a')).toEqual({
      organizationId: ORG.id,
      userId: 'usr_a',
      role: 'viewer',
      createdAt: NOW,
    });
    await store().memberships.put({ organizationId: ORG.id, userId: 'usr_a', role: 'admin', createdAt: NOW + 5 });
    expect(await store().memberships.find(ORG.id, 'usr_a')).toEqual({
      organizationId: ORG.id,
      userId: 'usr_a',
      role: 'admin',
      createdAt: NOW,
    });
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
    expect(mine[0]?.organization).toEqual({
      ...ORG,
      probePrivateTargets: null,
      monthlyReport: false,
      managedBy: 'api',
      createdAt: NOW,
    });
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
