import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { type SignedInUser, signedInUser } from '../../../../test/accounts.js';
import { type ApiHarness, BASE_URL, openApiHarness } from '../../../../test/api-app.js';
import { dialects } from '../../../../test/store-dialects.js';
import type { AccountSettings } from '../../../config/settings.js';
import { ACCOUNT_LIMITS } from '../../../domain/account.js';

for (const dialect of dialects) {
  describe.skipIf(!dialect.available)(`the organization on ${dialect.name}`, () => {
    let h: ApiHarness;
    const accounts: AccountSettings = { signup: 'invite', oidc: undefined };
    let owner: SignedInUser;
    let viewer: SignedInUser;
    beforeAll(async () => {
      h = await openApiHarness(dialect, { accounts });
      await h.pages.start();
      owner = await signedInUser(h.context, [{ organizationId: h.a.id, role: 'owner' }], { name: 'Olive Owner' });
      viewer = await signedInUser(h.context, [{ organizationId: h.a.id, role: 'viewer' }]);
    });
    afterAll(async () => {
      await h?.close();
    });

    /** A signed-in user's request from Warden's own pages, for the organization `org` (their first one without it). */
    const session = (user: SignedInUser, method: string, path: string, body?: unknown, org?: string) =>
      h.call(method, path, {
        key: null,
        body,
        headers: { cookie: user.cookie, origin: BASE_URL, ...(org ? { 'x-warden-organization': org } : {}) },
      });

    it("answers the organization with the caller's role: a key's scope, or the member's role", async () => {
      const read = await (await h.call('GET', '/api/v1/organization', { key: h.a.readKey })).json();
      expect(read).toEqual({
        id: h.a.id,
        key: 'alpha',
        name: 'Alpha',
        createdAt: expect.any(Number),
        managedBy: 'config',
        role: 'viewer',
        monthlyReport: false,
      });
      expect((await (await h.call('GET', '/api/v1/organization')).json()).role).toBe('admin');
      expect((await (await session(owner, 'GET', '/api/v1/organization')).json()).role).toBe('owner');
    });

    it('refuses to rename or delete an organization warden.yaml manages (409)', async () => {
      const renamed = await h.call('PATCH', '/api/v1/organization', { body: { name: 'Renamed' } });
      expect(renamed.status).toBe(409);
      expect((await renamed.json()).detail).toMatch(/managed by warden\.yaml/);
      expect((await session(owner, 'DELETE', '/api/v1/organization', { confirm: 'alpha' })).status).toBe(409);
      expect((await h.store.organizations.findByKey('alpha'))?.name).toBe('Alpha');
      // The file declares it: that, not what it holds, decides.
      expect((await h.store.organizations.findByKey('alpha'))?.managedBy).toBe('config');
    });

    it('lets an owner create another organization, which they own; only a signed-in browser may', async () => {
      const created = await session(owner, 'POST', '/api/v1/organizations', { key: 'gamma', name: 'Gamma' });
      expect(created.status).toBe(201);
      expect(await created.json()).toMatchObject({ key: 'gamma', name: 'Gamma', managedBy: 'api', role: 'owner' });
      const gamma = await (await session(owner, 'GET', '/api/v1/organization', undefined, 'gamma')).json();
      expect(gamma).toMatchObject({ key: 'gamma', role: 'owner' });
      expect((await session(owner, 'POST', '/api/v1/organizations', { key: 'gamma', name: 'Again' })).status).toBe(409);
      expect((await session(owner, 'POST', '/api/v1/organizations', { key: 'Not A Key', name: 'X' })).status).toBe(400);
      // API keys cannot, nor another site.
      expect([401, 403]).toContain(
        (await h.call('POST', '/api/v1/organizations', { body: { key: 'delta', name: 'Delta' } })).status,
      );
      const foreign = await h.call('POST', '/api/v1/organizations', {
        key: null,
        body: { key: 'delta', name: 'D' },
        headers: { cookie: owner.cookie, origin: 'https://evil.example' },
      });
      expect(foreign.status).toBe(403);
      expect(await h.store.organizations.findByKey('delta')).toBeUndefined();
    });

    it('lets a user who owns nothing create an organization only when sign-up is open', async () => {
      const refused = await session(viewer, 'POST', '/api/v1/organizations', { key: 'viewers-own', name: 'Mine' });
      expect(refused.status).toBe(403);
      accounts.signup = 'open';
      try {
        const newcomer = await signedInUser(h.context, []);
        expect(
          (await session(newcomer, 'POST', '/api/v1/organizations', { key: 'newcomers', name: 'Newcomers' })).status,
        ).toBe(201);
        expect((await (await session(newcomer, 'GET', '/api/v1/organization')).json()).key).toBe('newcomers');
      } finally {
        accounts.signup = 'invite';
      }
    });

    it(`caps the organizations of a user at ${ACCOUNT_LIMITS.organizationsPerUser}`, async () => {
      const busy = await signedInUser(h.context, [{ organizationId: h.a.id, role: 'owner' }]);
      await h.store.transaction(async (store) => {
        for (let i = 1; i < ACCOUNT_LIMITS.organizationsPerUser; i++) {
          const { organization } = await store.organizations.upsert(
            { id: `org_cap${i}`, key: `cap-${i}`, name: `Cap ${i}` },
            h.clock.now(),
          );
          await store.memberships.put({
            organizationId: organization.id,
            userId: busy.userId,
            role: 'viewer',
            createdAt: h.clock.now(),
          });
        }
      });
      const res = await session(busy, 'POST', '/api/v1/organizations', { key: 'one-too-many', name: 'X' });
      expect(res.status).toBe(409);
      expect((await res.json()).detail).toContain(`at most ${ACCOUNT_LIMITS.organizationsPerUser} organizations`);
    });

    it('lets an admin rename an organization of the API, and refuses a viewer', async () => {
      const admin = await signedInUser(h.context, [
        { organizationId: (await h.store.organizations.findByKey('gamma'))?.id as string, role: 'admin' },
      ]);
      const renamed = await session(admin, 'PATCH', '/api/v1/organization', { name: 'Gamma Ray' });
      expect(renamed.status).toBe(200);
      expect(await renamed.json()).toMatchObject({ key: 'gamma', name: 'Gamma Ray', role: 'admin' });
      expect((await session(viewer, 'PATCH', '/api/v1/organization', { name: 'Nope' })).status).toBe(403);
    });

    it('deletes an organization with everything it holds, for its owner only, once its key is typed again; its pages answer 404 at once', async () => {
      const gammaId = (await h.store.organizations.findByKey('gamma'))?.id as string;
      const asOwner = (method: string, path: string, body?: unknown) => session(owner, method, path, body, 'gamma');
      expect((await asOwner('POST', '/api/v1/pages', { slug: 'gamma-status', title: 'Gamma status' })).status).toBe(
        201,
      );
      const monitor = await (
        await asOwner('POST', '/api/v1/monitors', {
          key: 'hub',
          name: 'Hub',
          type: 'tcp',
          config: { host: '127.0.0.1', port: 1 },
        })
      ).json();
      await h.store.checks.write(
        [
          {
            monitorId: monitor.id,
            checkedAt: h.clock.now(),
            ok: true,
            degraded: false,
            latencyMs: 3,
            message: null,
            error: null,
            data: null,
            source: 'edge',
            resultId: null,
          },
        ],
        [],
      );
      const key = await (await asOwner('POST', '/api/v1/api-keys', { name: 'gamma-write', scope: 'write' })).json();
      expect((await asOwner('POST', '/api/v1/invitations', { role: 'viewer' })).status).toBe(201);
      await vi.waitFor(async () => expect((await h.call('GET', '/s/gamma-status', { key: null })).status).toBe(200));

      // A write key acts as an admin, never an owner; an admin is not an owner either; the key must be typed again.
      expect(
        (await h.call('DELETE', '/api/v1/organization', { key: key.key, body: { confirm: 'gamma' } })).status,
      ).toBe(403);
      const admin = await signedInUser(h.context, [{ organizationId: gammaId, role: 'admin' }]);
      expect((await session(admin, 'DELETE', '/api/v1/organization', { confirm: 'gamma' })).status).toBe(403);
      const unconfirmed = await asOwner('DELETE', '/api/v1/organization', { confirm: 'alpha' });
      expect(unconfirmed.status).toBe(400);
      expect((await unconfirmed.json()).errors).toEqual([
        { path: 'body.confirm', message: 'expected the organization\'s key, "gamma"' },
      ]);

      h.events.length = 0;
      expect((await asOwner('DELETE', '/api/v1/organization', { confirm: 'gamma' })).status).toBe(204);
      expect(h.events).toEqual(
        expect.arrayContaining([
          expect.objectContaining({ type: 'monitors.changed', organizationId: gammaId }),
          expect.objectContaining({ type: 'page.changed' }),
        ]),
      );
      await vi.waitFor(async () => expect((await h.call('GET', '/s/gamma-status', { key: null })).status).toBe(404));
      // Everything it held went with it, by the foreign keys' cascade.
      const { store } = h;
      expect(await store.organizations.findById(gammaId)).toBeUndefined();
      expect(await store.monitors.findById(monitor.id)).toBeUndefined();
      expect(await store.checks.list(monitor.id, { from: 0, to: h.clock.now() + 1, limit: 10 })).toEqual([]);
      expect(await store.pages.findBySlug('gamma-status')).toBeUndefined();
      expect(await store.apiKeys.list(gammaId)).toEqual([]);
      expect(await store.memberships.listByOrganization(gammaId)).toEqual([]);
      expect(await store.invitations.listPending(gammaId)).toEqual([]);
      expect(await store.audit.list({ organizationId: gammaId, limit: 10 })).toEqual([]);
      expect((await h.call('GET', '/api/v1/monitors', { key: key.key })).status).toBe(401);
      // The owner is still a member of Alpha, and the slug is free again.
      expect((await (await session(owner, 'GET', '/api/v1/organization')).json()).key).toBe('alpha');
      expect((await session(owner, 'GET', '/api/v1/organization', undefined, 'gamma')).status).toBe(403);
      expect((await session(owner, 'POST', '/api/v1/pages', { slug: 'gamma-status', title: 'Reused' })).status).toBe(
        201,
      );
    });
  });
}
