import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type SignedInUser, signedInUser } from '../../../test/accounts.js';
import { type ApiHarness, BASE_URL, openApiHarness } from '../../../test/api-app.js';
import { apiOperations, type Operation, organizationObjects, VALID_BODIES } from '../../../test/api-objects.js';
import { dialects } from '../../../test/store-dialects.js';
import { ROLES, type Role, roleAtLeast } from '../../domain/account.js';

/** The one write a member may make whatever their role: removing themselves. Any other member needs an admin. */
const LEAVE = 'DELETE /api/v1/members/{userId}';

for (const dialect of dialects) {
  describe.skipIf(!dialect.available)(`roles of signed-in members on ${dialect.name}`, () => {
    let h: ApiHarness;
    let operations: Operation[];
    /** Path parameters naming organization A's own objects, and B's. */
    let ours: (template: string) => string;
    let theirs: (template: string) => string;
    const members = {} as Record<Role, SignedInUser>;

    beforeAll(async () => {
      h = await openApiHarness(dialect);
      operations = await apiOperations(h);
      ours = (await organizationObjects(h, h.a, 'alpha')).paths;
      theirs = (await organizationObjects(h, h.b, 'beta')).paths;
      for (const role of ROLES) members[role] = await signedInUser(h.context, [{ organizationId: h.a.id, role }]);
    });
    afterAll(async () => {
      await h?.close();
    });

    /** A request as a signed-in member, from Warden's own pages (writes need the Origin). */
    const as = (role: Role, op: Operation, path: string) =>
      h.call(op.method, path, {
        key: null,
        body: VALID_BODIES[`${op.method} ${op.path}`] ?? {},
        headers: { cookie: members[role].cookie, origin: BASE_URL },
      });

    it('documents the role each route needs: credentials, people and their data need an admin, deleting the organization an owner', () => {
      const needing = (role: Role) =>
        operations
          .filter((o) => o.role === role)
          .map((o) => `${o.method} ${o.path}`)
          .sort();
      expect(needing('owner')).toEqual(['DELETE /api/v1/organization']);
      expect(needing('admin')).toEqual(
        [
          'GET /api/v1/api-keys',
          'POST /api/v1/api-keys',
          'DELETE /api/v1/api-keys/{id}',
          'POST /api/v1/relays',
          'PATCH /api/v1/relays/{id}',
          'DELETE /api/v1/relays/{id}',
          'POST /api/v1/relays/{id}/token',
          'POST /api/v1/notification-channels',
          'PATCH /api/v1/notification-channels/{key}',
          'DELETE /api/v1/notification-channels/{key}',
          'POST /api/v1/notification-channels/{key}/secret',
          'POST /api/v1/notification-channels/{key}/test',
          'GET /api/v1/notification-channels/{key}/recipients',
          'GET /api/v1/notification-channels/{key}/deliveries',
          'GET /api/v1/pages/{slug}/subscribers',
          'DELETE /api/v1/pages/{slug}/subscribers/{id}',
          'POST /api/v1/pages/{slug}/subscribers/{id}/approve',
          'PATCH /api/v1/organization',
          'PATCH /api/v1/members/{userId}',
          'GET /api/v1/invitations',
          'POST /api/v1/invitations',
          'DELETE /api/v1/invitations/{id}',
          'GET /api/v1/audit',
        ].sort(),
      );
      // Every other write is an editor's: monitors, pages, components, incidents, maintenance, domain verification.
      const editors = operations.filter((o) => o.write && o.role === 'editor').map((o) => `${o.method} ${o.path}`);
      expect(editors).toEqual(
        expect.arrayContaining([
          'POST /api/v1/monitors',
          'PATCH /api/v1/pages/{slug}',
          'POST /api/v1/incidents/{id}/updates',
          'POST /api/v1/pages/{slug}/domain/verify',
        ]),
      );
      expect(operations.filter((o) => o.write && o.role === 'viewer').map((o) => `${o.method} ${o.path}`)).toEqual([
        LEAVE,
      ]);
    });

    it('answers 403 to a viewer on every write route', async () => {
      for (const op of operations.filter((o) => o.write)) {
        const res = await as('viewer', op, ours(op.path));
        expect(res.status, `${op.method} ${op.path}`).toBe(403);
        expect((await res.json()).type).toBe('https://warden.dev/problems/forbidden');
      }
    });

    it('answers 403 to an editor on the admin and owner routes, and lets the editor routes through', async () => {
      for (const op of operations.filter((o) => o.write)) {
        const res = await as('editor', op, ours(op.path));
        const what = `${op.method} ${op.path} → ${res.status}`;
        if (roleAtLeast(op.role, 'admin') || `${op.method} ${op.path}` === LEAVE) expect(res.status, what).toBe(403);
        else expect([401, 403], what).not.toContain(res.status);
      }
    });

    it('lets a viewer read every read route that needs no more, and refuses the admin reads', async () => {
      for (const op of operations.filter((o) => !o.write)) {
        const res = await as('viewer', op, ours(op.path));
        const what = `${op.method} ${ours(op.path)} → ${res.status}`;
        if (op.role !== 'viewer') expect(res.status, what).toBe(403);
        // A read whose query cannot be left out answers 400 here: it still passed authorization.
        else if (op.requiredQuery.length > 0) expect([401, 403], what).not.toContain(res.status);
        else expect(res.status, what).toBe(200);
      }
    });

    it.each(ROLES)(
      'answers 404 to a signed-in %s of A for every object of organization B (a route above the role: 403 first)',
      async (role) => {
        for (const op of operations.filter((o) => o.path.includes('{'))) {
          const res = await as(role, op, theirs(op.path));
          const above =
            !roleAtLeast(role, op.role) || (`${op.method} ${op.path}` === LEAVE && !roleAtLeast(role, 'admin'));
          expect(res.status, `${op.method} ${theirs(op.path)}`).toBe(above ? 403 : 404);
        }
        // Organization B still has everything.
        expect((await (await h.call('GET', '/api/v1/monitors', { key: h.b.readKey })).json()).monitors).toHaveLength(1);
      },
    );
  });
}
