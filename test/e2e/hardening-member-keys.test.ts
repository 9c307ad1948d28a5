// Issue 32: a removed admin kept admin rights through the API keys they made (their write key minted a new admin
// invitation, and they rejoined). Keys record whose authority made them — a key made with a key answers to that key's
// maker — and removing a member, their leaving, or lowering their role revokes what they made above the role they keep
// (keys and pending invitations), at once, listed in the answer and in the audit log.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Role } from '../../src/domain/account.js';
import { type SignedInUser, signedInUser } from '../accounts.js';
import { testContext } from '../seed.js';
import { type SeededWarden, startSeededWarden } from '../seeded-warden.js';
import { dialects } from '../store-dialects.js';

const CONFIG = `
organization: { key: acme, name: Acme }
monitors:
  - { key: site, name: Site, type: heartbeat }
`;

interface CreatedKey {
  id: string;
  name: string;
  prefix: string;
  scope: 'read' | 'write';
  key: string;
  createdBy: string | null;
}

for (const dialect of dialects) {
  describe.skipIf(!dialect.available)(`what a member made, after they go or step down, on ${dialect.name}`, () => {
    let s: SeededWarden;
    let owner: SignedInUser;

    /** A request as the dashboard sends it (a session) or as a script does (a key). */
    const call = (method: string, path: string, as: { user?: SignedInUser; key?: string }, body?: unknown) =>
      fetch(`${s.url}${path}`, {
        method,
        headers: {
          'content-type': 'application/json',
          ...(as.user ? { cookie: as.user.cookie, origin: s.url } : {}),
          ...(as.key ? { authorization: `Bearer ${as.key}` } : {}),
        },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
    // The server runs on the real clock: so do the sessions.
    const member = (role: Role) =>
      signedInUser({ ...testContext(s.opened.store, { now: () => Date.now() }), organizationId: s.organizationId }, [
        { organizationId: s.organizationId, role },
      ]);
    const makeKey = async (
      as: { user?: SignedInUser; key?: string },
      name: string,
      scope: 'read' | 'write',
    ): Promise<CreatedKey> => {
      const res = await call('POST', '/api/v1/api-keys', as, { name, scope });
      expect(res.status, await res.clone().text()).toBe(201);
      return res.json();
    };
    const invite = async (
      as: { user?: SignedInUser; key?: string },
      role: Role,
    ): Promise<{ id: string; link: string }> => {
      const res = await call('POST', '/api/v1/invitations', as, { role });
      expect(res.status, await res.clone().text()).toBe(201);
      const { invitation, link } = await res.json();
      return { id: invitation.id, link };
    };
    const works = async (key: string) => (await call('GET', '/api/v1/monitors', { key })).status;
    const invitationState = async (link: string) =>
      (await fetch(`${s.url}/api/v1/auth/invitations/${new URL(link).searchParams.get('token')}`)).status;
    const summary = (key: CreatedKey) => ({ id: key.id, name: key.name, prefix: key.prefix, scope: key.scope });

    beforeAll(async () => {
      s = await startSeededWarden(dialect, CONFIG);
      owner = await member('owner');
    });
    afterAll(async () => {
      await s?.close();
    });

    it('records who made a key, through a key too; a viewer or editor makes none', async () => {
      const admin = await member('admin');
      const write = await makeKey({ user: admin }, 'deploy', 'write');
      const chained = await makeKey({ key: write.key }, 'made by a key', 'write');
      const operators = await makeKey({ key: s.writeKey }, 'made by the CLI key', 'read');
      expect([write.createdBy, chained.createdBy, operators.createdBy]).toEqual([admin.userId, admin.userId, null]);
      const { apiKeys } = await (await call('GET', '/api/v1/api-keys', { user: owner })).json();
      expect(apiKeys.find((k: { id: string }) => k.id === chained.id)).toMatchObject({ createdBy: admin.userId });
      for (const role of ['viewer', 'editor'] as const)
        expect(
          (await call('POST', '/api/v1/api-keys', { user: await member(role) }, { name: 'x', scope: 'read' })).status,
        ).toBe(403);
    });

    it("revokes a removed admin's keys at once (a key's own keys too), withdraws their invitations, and lists them", async () => {
      const admin = await member('admin');
      const write = await makeKey({ user: admin }, 'ci', 'write');
      const read = await makeKey({ user: admin }, 'grafana', 'read');
      const chained = await makeKey({ key: write.key }, 'backdoor', 'write');
      const minted = await invite({ key: write.key }, 'admin');
      const own = await invite({ user: admin }, 'viewer');
      expect(await invitationState(minted.link)).toBe(200);
      const others = await makeKey({ user: owner }, "the owner's", 'write');

      const removed = await call('DELETE', `/api/v1/members/${admin.userId}`, { user: owner });
      expect(removed.status).toBe(200);
      const answer = await removed.json();
      expect(answer).toMatchObject({ id: admin.userId, email: admin.email, role: 'admin' });
      expect(answer.revokedApiKeys).toEqual([summary(write), summary(read), summary(chained)]);
      expect(answer.revokedInvitations.map((i: { id: string }) => i.id).sort()).toEqual([minted.id, own.id].sort());
      expect(JSON.stringify(answer)).not.toContain(write.key);

      for (const key of [write, read, chained]) expect(await works(key.key)).toBe(401);
      expect(await invitationState(minted.link)).toBe(410);
      expect(await works(others.key)).toBe(200);
      expect(await works(s.writeKey)).toBe(200);

      const { entries } = await (
        await call('GET', `/api/v1/audit?objectType=api-key&limit=50`, { user: owner })
      ).json();
      const revocations = entries.filter(
        (e: { action: string; detail: { madeBy?: string } | null }) =>
          e.action === 'api-key.revoke' && e.detail?.madeBy === admin.userId,
      );
      expect(revocations.map((e: { object: { id: string } }) => e.object.id).sort()).toEqual(
        [write.id, read.id, chained.id].sort(),
      );
      expect(revocations[0]).toMatchObject({
        actor: { kind: 'user', id: owner.userId },
        detail: { because: 'member.remove' },
      });
      const removal = (
        await (await call('GET', `/api/v1/audit?objectType=member&objectId=${admin.userId}`, { user: owner })).json()
      ).entries[0];
      expect(removal).toMatchObject({
        action: 'member.remove',
        detail: { role: 'admin', revokedApiKeys: [write.id, read.id, chained.id] },
      });
    });

    it("revokes a demoted admin's write keys and the invitations above the new role, keeping read keys", async () => {
      const admin = await member('admin');
      const write = await makeKey({ user: admin }, 'deploy', 'write');
      const read = await makeKey({ user: admin }, 'dashboard', 'read');
      const asAdmin = await invite({ user: admin }, 'admin');
      const asViewer = await invite({ user: admin }, 'viewer');

      const demoted = await call('PATCH', `/api/v1/members/${admin.userId}`, { user: owner }, { role: 'viewer' });
      expect(demoted.status).toBe(200);
      expect(await demoted.json()).toMatchObject({
        id: admin.userId,
        role: 'viewer',
        revokedApiKeys: [summary(write)],
        revokedInvitations: [{ id: asAdmin.id, email: null, role: 'admin' }],
      });
      expect(await works(write.key)).toBe(401);
      expect(await works(read.key)).toBe(200);
      expect(await invitationState(asAdmin.link)).toBe(410);
      expect(await invitationState(asViewer.link)).toBe(200);
      // Their session is a viewer's now: it makes no key.
      expect((await call('POST', '/api/v1/api-keys', { user: admin }, { name: 'again', scope: 'write' })).status).toBe(
        403,
      );
    });

    it('revokes an owner-turned-editor’s write keys, and nothing when an owner becomes an admin', async () => {
      const second = await member('owner');
      const write = await makeKey({ user: second }, 'ops', 'write');
      const toAdmin = await (
        await call('PATCH', `/api/v1/members/${second.userId}`, { user: owner }, { role: 'admin' })
      ).json();
      expect(toAdmin).toMatchObject({ role: 'admin', revokedApiKeys: [], revokedInvitations: [] });
      expect(await works(write.key)).toBe(200);
      const toEditor = await (
        await call('PATCH', `/api/v1/members/${second.userId}`, { user: owner }, { role: 'editor' })
      ).json();
      expect(toEditor).toMatchObject({ role: 'editor', revokedApiKeys: [summary(write)] });
      expect(await works(write.key)).toBe(401);
    });

    it('revokes the keys of a member who leaves by themselves', async () => {
      const admin = await member('admin');
      const read = await makeKey({ user: admin }, 'mine', 'read');
      const left = await call('DELETE', `/api/v1/members/${admin.userId}`, { user: admin });
      expect(left.status).toBe(200);
      expect((await left.json()).revokedApiKeys).toEqual([summary(read)]);
      expect(await works(read.key)).toBe(401);
    });
  });
}
