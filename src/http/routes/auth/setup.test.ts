// First run: POST /api/v1/auth/setup with the setup link's token creates the first owner — of every organization but
// the demo, or of a new one — and works once, before it expires, while no account exists.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { type ApiHarness, BASE_URL, openApiHarness, T0 } from '../../../../test/api-app.js';
import { browse, sessionSet } from '../../../../test/auth-browser.js';
import { dialects, type OpenedStore } from '../../../../test/store-dialects.js';
import { composeWarden } from '../../../compose.js';
import { createLogger } from '../../../logger.js';
import { openSetupLink } from '../../../services/accounts/setup.js';

const tokenOf = (url: string) => new URL(url).searchParams.get('token') as string;
const OWNER = { email: 'Owner@Example.com', name: 'Olive Owner', password: 'correct horse battery staple' };

for (const dialect of dialects) {
  describe.skipIf(!dialect.available)(`first-run setup on ${dialect.name}`, () => {
    let h: ApiHarness;
    beforeAll(async () => {
      h = await openApiHarness(dialect);
      // The built-in demo's organization is there too, as on a fresh server.
      await h.store.organizations.upsert({ id: 'org_demo', key: 'demo', name: 'Warden demo' }, T0);
    });
    afterAll(async () => {
      await h?.close();
    });

    it('refuses an expired link, and one replaced by a newer link', async () => {
      const expired = await openSetupLink(h.context);
      expect(expired?.url).toMatch(new RegExp(`^${BASE_URL}/app/setup\\?token=wdu_[\\w-]+$`));
      h.clock.advance(3600_000 + 1);
      const res = await browse(h, 'POST', '/api/v1/auth/setup', {
        body: { ...OWNER, token: tokenOf(expired?.url ?? '') },
      });
      expect(res.status).toBe(410);
      expect((await res.json()).type).toBe('https://warden.dev/problems/link-unusable');
      const replaced = await openSetupLink(h.context);
      await openSetupLink(h.context);
      expect(
        (await browse(h, 'POST', '/api/v1/auth/setup', { body: { ...OWNER, token: tokenOf(replaced?.url ?? '') } }))
          .status,
      ).toBe(410);
      expect(
        (await browse(h, 'POST', '/api/v1/auth/setup', { body: { ...OWNER, token: 'wdu_notatokenwardenissuedever' } }))
          .status,
      ).toBe(410);
      expect((await (await browse(h, 'GET', '/api/v1/auth/config')).json()).setupRequired).toBe(true);
    });

    it('refuses a setup from another site, and names invalid fields', async () => {
      const link = await openSetupLink(h.context);
      const body = { ...OWNER, token: tokenOf(link?.url ?? '') };
      expect((await browse(h, 'POST', '/api/v1/auth/setup', { body, origin: 'https://evil.test' })).status).toBe(403);
      const invalid = await browse(h, 'POST', '/api/v1/auth/setup', {
        body: { ...body, email: 'owner', password: 'short', organization: { key: 'demo' } },
      });
      expect(invalid.status).toBe(400);
      expect((await invalid.json()).errors.map((e: { path: string }) => e.path).sort()).toEqual([
        'body.email',
        'body.organization.key',
        'body.password',
      ]);
    });

    it('creates the owner of every organization but the demo, signed in; the link works once', async () => {
      const link = await openSetupLink(h.context);
      const body = { ...OWNER, token: tokenOf(link?.url ?? '') };
      const res = await browse(h, 'POST', '/api/v1/auth/setup', { body });
      expect(res.status).toBe(201);
      expect(res.headers.get('cache-control')).toBe('no-store');
      const account = await res.json();
      expect(account.user).toMatchObject({
        email: 'owner@example.com',
        name: 'Olive Owner',
        hasPassword: true,
        totpEnabled: false,
      });
      expect(account.organizations.map((o: { key: string; role: string }) => `${o.key}:${o.role}`)).toEqual([
        'alpha:owner',
        'beta:owner',
      ]);
      const session = sessionSet(res);
      expect((await browse(h, 'GET', '/api/v1/auth/me', { session })).status).toBe(200);
      // An owner acts for either organization through the organization API.
      expect(
        (await browse(h, 'GET', '/api/v1/monitors', { session, headers: { 'x-warden-organization': 'beta' } })).status,
      ).toBe(200);
      expect(
        (await browse(h, 'POST', '/api/v1/auth/setup', { body: { ...body, email: 'second@example.com' } })).status,
      ).toBe(409);
      expect((await (await browse(h, 'GET', '/api/v1/auth/config')).json()).setupRequired).toBe(false);
      // The organizations' audit logs say who joined, and how.
      const entries = await h.store.audit.list({ organizationId: h.a.id, limit: 50 });
      expect(entries.filter((e) => e.action === 'member.add')).toEqual([
        expect.objectContaining({
          actorKind: 'user',
          objectLabel: 'owner@example.com',
          detail: { role: 'owner', via: 'setup' },
        }),
      ]);
    });

    it('makes no link once an account exists', async () => {
      expect(await openSetupLink(h.context)).toBeNull();
    });
  });

  describe.skipIf(!dialect.available)(`first-run setup of a server holding only the demo on ${dialect.name}`, () => {
    let opened: OpenedStore | undefined;
    afterEach(async () => {
      await opened?.cleanup();
      opened = undefined;
    });
    async function bareServer() {
      opened = await dialect.open();
      const { store } = opened;
      await store.organizations.upsert({ id: 'org_demo', key: 'demo', name: 'Warden demo' }, T0);
      const parts = composeWarden({
        store,
        clock: { now: () => T0 },
        logger: createLogger('silent'),
        baseUrl: () => BASE_URL,
      });
      const setup = async (extra: Record<string, unknown>) => {
        const link = await openSetupLink(parts.context);
        return parts.app.request('/api/v1/auth/setup', {
          method: 'POST',
          headers: { 'content-type': 'application/json', origin: BASE_URL },
          body: JSON.stringify({ ...OWNER, token: tokenOf(link?.url ?? ''), ...extra }),
        });
      };
      return { store, setup };
    }

    it('creates the organization the owner names', async () => {
      const { store, setup } = await bareServer();
      const res = await setup({ organization: { key: 'ops', name: 'Ops crew' } });
      expect(res.status).toBe(201);
      expect((await res.json()).organizations).toEqual([
        expect.objectContaining({ key: 'ops', name: 'Ops crew', role: 'owner' }),
      ]);
      expect((await store.organizations.list()).map((o) => o.key).sort()).toEqual(['demo', 'ops']);
    });

    it('creates "main" when the owner names none', async () => {
      const { setup } = await bareServer();
      const res = await setup({});
      expect((await res.json()).organizations).toEqual([
        expect.objectContaining({ key: 'main', name: 'My organization', role: 'owner' }),
      ]);
    });
  });
}
