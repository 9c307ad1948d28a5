// /api/v1/demo: the built-in demo from the dashboard — seen by any signed-in user, removed only by an owner of every
// other organization (the operator's standing), never with an API key.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type SignedInUser, signedInUser } from '../../../../test/accounts.js';
import { type ApiHarness, BASE_URL, openApiHarness } from '../../../../test/api-app.js';
import { dialects } from '../../../../test/store-dialects.js';
import { applyConfig } from '../../../config/apply.js';
import { demoConfig } from '../../../config/demo.js';

for (const dialect of dialects) {
  describe.skipIf(!dialect.available)(`the built-in demo through the API on ${dialect.name}`, () => {
    let h: ApiHarness;
    let operator: SignedInUser;
    let tenant: SignedInUser;
    beforeAll(async () => {
      h = await openApiHarness(dialect);
      await applyConfig(h.context, demoConfig(8080, undefined, { retired: true }));
      operator = await signedInUser(h.context, [
        { organizationId: h.a.id, role: 'owner' },
        { organizationId: h.b.id, role: 'owner' },
      ]);
      tenant = await signedInUser(h.context, [
        { organizationId: h.a.id, role: 'owner' },
        { organizationId: h.b.id, role: 'admin' },
      ]);
    });
    afterAll(async () => {
      await h?.close();
    });

    const session = (user: SignedInUser, method: string) =>
      h.call(method, '/api/v1/demo', { key: null, headers: { cookie: user.cookie, origin: BASE_URL } });

    it('tells whether the demo is there, and lets only an owner of every other organization remove it', async () => {
      expect(await (await session(operator, 'GET')).json()).toEqual({ present: true, removable: true });
      expect(await (await session(tenant, 'GET')).json()).toEqual({ present: true, removable: false });

      const refused = await session(tenant, 'DELETE');
      expect(refused.status).toBe(403);
      expect(refused.headers.get('content-type')).toMatch(/^application\/problem\+json/);
      expect((await refused.json()).detail).toMatch(/owner of every other organization.*warden demo remove/);
      // The organization API's keys act for one organization: the demo is none of theirs.
      const keyed = await h.call('DELETE', '/api/v1/demo', { key: h.a.writeKey, headers: { origin: BASE_URL } });
      expect(keyed.status).toBe(401);
      expect(await h.store.organizations.findByKey('demo')).toBeDefined();

      expect((await session(operator, 'DELETE')).status).toBe(204);
      expect(await h.store.organizations.findByKey('demo')).toBeUndefined();
      expect((await h.store.organizations.list()).map((o) => o.key).sort()).toEqual(['alpha', 'beta']);
      expect(await (await session(operator, 'GET')).json()).toEqual({ present: false, removable: false });
      const again = await session(operator, 'DELETE');
      expect(again.status).toBe(404);
      expect(again.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    });
  });
}
