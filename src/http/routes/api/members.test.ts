import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type SignedInUser, signedInUser } from '../../../../test/accounts.js';
import { type ApiHarness, BASE_URL, openApiHarness } from '../../../../test/api-app.js';
import { dialects } from '../../../../test/store-dialects.js';
import type { Role } from '../../../domain/account.js';

for (const dialect of dialects) {
  describe.skipIf(!dialect.available)(`members on ${dialect.name}`, () => {
    let h: ApiHarness;
    const users = {} as Record<'owner' | 'admin' | 'editor' | 'viewer' | 'leaver', SignedInUser>;
    beforeAll(async () => {
      h = await openApiHarness(dialect);
      const roles: [keyof typeof users, Role][] = [
        ['owner', 'owner'],
        ['admin', 'admin'],
        ['editor', 'editor'],
        ['viewer', 'viewer'],
        ['leaver', 'viewer'],
      ];
      for (const [name, role] of roles) {
        users[name] = await signedInUser(h.context, [{ organizationId: h.a.id, role }], {
          name: `${name[0]?.toUpperCase()}${name.slice(1)}`,
          email: `${name}@example.com`,
        });
        h.clock.advance(1000);
      }
    });
    afterAll(async () => {
      await h?.close();
    });

    const as = (user: SignedInUser, method: string, path: string, body?: unknown) =>
      h.call(method, path, { key: null, body, headers: { cookie: user.cookie, origin: BASE_URL } });
    const roleOf = async (user: SignedInUser) => (await h.store.memberships.find(h.a.id, user.userId))?.role;

    it('lists the members with their roles, oldest first, to any member', async () => {
      const res = await as(users.viewer, 'GET', '/api/v1/members');
      expect(res.status).toBe(200);
      const { members } = await res.json();
      expect(members.map((m: { email: string; role: string }) => [m.email, m.role])).toEqual([
        ['owner@example.com', 'owner'],
        ['admin@example.com', 'admin'],
        ['editor@example.com', 'editor'],
        ['viewer@example.com', 'viewer'],
        ['leaver@example.com', 'viewer'],
      ]);
      expect(members[0]).toEqual({
        id: users.owner.userId,
        email: 'owner@example.com',
        name: 'Owner',
        role: 'owner',
        since: expect.any(Number),
      });
      // Organization B's members are not A's business.
      const other = await signedInUser(h.context, [{ organizationId: h.b.id, role: 'owner' }]);
      expect(
        (await (await h.call('GET', '/api/v1/members', { key: h.b.readKey })).json()).members.map(
          (m: { id: string }) => m.id,
        ),
      ).toEqual([other.userId]);
      expect((await as(users.admin, 'PATCH', `/api/v1/members/${other.userId}`, { role: 'viewer' })).status).toBe(404);
    });

    it('lets an admin change roles below owner, and refuses an editor', async () => {
      const res = await as(users.admin, 'PATCH', `/api/v1/members/${users.viewer.userId}`, { role: 'editor' });
      expect(res.status).toBe(200);
      expect(await res.json()).toMatchObject({ id: users.viewer.userId, role: 'editor' });
      expect(await roleOf(users.viewer)).toBe('editor');
      expect(
        (await as(users.editor, 'PATCH', `/api/v1/members/${users.viewer.userId}`, { role: 'viewer' })).status,
      ).toBe(403);
      expect(
        (await as(users.admin, 'PATCH', `/api/v1/members/${users.viewer.userId}`, { role: 'superuser' })).status,
      ).toBe(400);
      expect((await as(users.admin, 'PATCH', '/api/v1/members/usr_nobody', { role: 'viewer' })).status).toBe(404);
    });

    it('lets only owners make or unmake owners (a write key is an admin)', async () => {
      const promote = await as(users.admin, 'PATCH', `/api/v1/members/${users.editor.userId}`, { role: 'owner' });
      expect(promote.status).toBe(403);
      expect((await promote.json()).detail).toBe('Only owners make or unmake owners.');
      expect((await as(users.admin, 'PATCH', `/api/v1/members/${users.admin.userId}`, { role: 'owner' })).status).toBe(
        403,
      );
      expect((await as(users.admin, 'PATCH', `/api/v1/members/${users.owner.userId}`, { role: 'viewer' })).status).toBe(
        403,
      );
      expect(
        (await h.call('PATCH', `/api/v1/members/${users.editor.userId}`, { body: { role: 'owner' } })).status,
      ).toBe(403);
      expect(await roleOf(users.owner)).toBe('owner');
      expect(await roleOf(users.editor)).toBe('editor');
    });

    it('never lets the last owner be demoted or removed, by anyone', async () => {
      const demoted = await as(users.owner, 'PATCH', `/api/v1/members/${users.owner.userId}`, { role: 'admin' });
      expect(demoted.status).toBe(409);
      expect((await demoted.json()).detail).toMatch(/last owner/);
      expect((await as(users.owner, 'DELETE', `/api/v1/members/${users.owner.userId}`)).status).toBe(409);
      expect((await as(users.admin, 'DELETE', `/api/v1/members/${users.owner.userId}`)).status).toBe(403);
      expect(await roleOf(users.owner)).toBe('owner');
      // With a second owner, the first may step down; the second is then the last.
      expect((await as(users.owner, 'PATCH', `/api/v1/members/${users.admin.userId}`, { role: 'owner' })).status).toBe(
        200,
      );
      expect((await as(users.owner, 'PATCH', `/api/v1/members/${users.owner.userId}`, { role: 'admin' })).status).toBe(
        200,
      );
      expect((await as(users.admin, 'PATCH', `/api/v1/members/${users.admin.userId}`, { role: 'editor' })).status).toBe(
        409,
      );
      expect(await roleOf(users.admin)).toBe('owner');
    });

    it('lets any member leave, and only admins remove others', async () => {
      expect((await as(users.leaver, 'DELETE', `/api/v1/members/${users.editor.userId}`)).status).toBe(403);
      expect(await roleOf(users.editor)).toBe('editor');
      const left = await as(users.leaver, 'DELETE', `/api/v1/members/${users.leaver.userId}`);
      expect(left.status).toBe(200);
      expect(await left.json()).toEqual({
        id: users.leaver.userId,
        email: 'leaver@example.com',
        name: 'Leaver',
        role: 'viewer',
        since: expect.any(Number),
        revokedApiKeys: [],
        revokedInvitations: [],
      });
      expect(await roleOf(users.leaver)).toBeUndefined();
      // Their session stays, without the organization.
      expect((await as(users.leaver, 'GET', '/api/v1/monitors')).status).toBe(403);
      expect((await as(users.owner, 'DELETE', `/api/v1/members/${users.editor.userId}`)).status).toBe(200);
      expect((await as(users.owner, 'DELETE', `/api/v1/members/${users.editor.userId}`)).status).toBe(404);
    });
  });
}
