import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ApiHarness, ORG_A_YAML, openApiHarness, T0 } from '../../../../test/api-app.js';
import { seed } from '../../../../test/seed.js';
import { dialects } from '../../../../test/store-dialects.js';
import { verifyPassword } from '../../../domain/passwords.js';

for (const dialect of dialects) {
  describe.skipIf(!dialect.available)(`page and component API on ${dialect.name}`, () => {
    let h: ApiHarness;
    beforeAll(async () => {
      h = await openApiHarness(dialect);
    });
    afterAll(async () => {
      await h?.close();
    });

    describe('/api/v1/pages', () => {
      it("lists the organization's pages, marking those warden.yaml manages", async () => {
        const res = await h.call('GET', '/api/v1/pages', { key: h.a.readKey });
        expect(res.status).toBe(200);
        const { pages } = await res.json();
        expect(pages).toEqual([
          expect.objectContaining({
            slug: 'alpha',
            title: 'Alpha status',
            managedBy: 'config',
            passwordProtected: false,
          }),
        ]);
      });

      it('creates a page, hashing its password and never returning it, and tells the page caches', async () => {
        const before = h.events.length;
        const res = await h.call('POST', '/api/v1/pages', {
          body: {
            slug: 'survival',
            title: 'Survival',
            description: 'Our survival server',
            customDomain: 'Status.Example.com',
            password: 'hunter22',
          },
        });
        expect(res.status).toBe(201);
        const page = await res.json();
        expect(page).toMatchObject({
          slug: 'survival',
          customDomain: 'status.example.com',
          passwordProtected: true,
          aiPolicy: 'allow',
          managedBy: 'api',
          createdAt: T0,
        });
        expect(JSON.stringify(page)).not.toContain('hunter22');
        const stored = await h.store.pages.findBySlug('survival');
        expect(stored?.passwordHash).toMatch(/^scrypt\$/);
        expect(await verifyPassword('hunter22', stored?.passwordHash as string)).toBe(true);
        expect(h.events.slice(before)).toContainEqual({ type: 'page.changed', at: T0, pageId: page.id });
      });

      it('reads, changes and deletes a page created through the API', async () => {
        await h.call('POST', '/api/v1/pages', { body: { slug: 'creative', title: 'Creative', password: 'secret-1' } });
        let res = await h.call('GET', '/api/v1/pages/creative', { key: h.a.readKey });
        expect(await res.json()).toMatchObject({ slug: 'creative', passwordProtected: true });
        res = await h.call('PATCH', '/api/v1/pages/creative', {
          body: { title: 'Creative world', password: null, aiPolicy: 'disallow', description: 'Build' },
        });
        expect(res.status).toBe(200);
        expect(await res.json()).toMatchObject({
          title: 'Creative world',
          passwordProtected: false,
          aiPolicy: 'disallow',
          description: 'Build',
        });
        res = await h.call('PATCH', '/api/v1/pages/creative', { body: { description: null } });
        expect(await res.json()).toMatchObject({ title: 'Creative world', description: null, aiPolicy: 'disallow' });
        expect((await h.call('DELETE', '/api/v1/pages/creative')).status).toBe(204);
        expect((await h.call('GET', '/api/v1/pages/creative')).status).toBe(404);
      });

      it("addresses a page by its id too, and its children; never another organization's", async () => {
        const page = await (await h.call('POST', '/api/v1/pages', { body: { slug: 'by-id', title: 'By id' } })).json();
        expect(await (await h.call('GET', `/api/v1/pages/${page.id}`, { key: h.a.readKey })).json()).toMatchObject({
          slug: 'by-id',
        });
        expect((await h.call('PATCH', `/api/v1/pages/${page.id}`, { body: { title: 'By id too' } })).status).toBe(200);
        expect(
          (await h.call('POST', `/api/v1/pages/${page.id}/components`, { body: { key: 'web', name: 'Web' } })).status,
        ).toBe(201);
        expect((await h.call('GET', `/api/v1/pages/${page.id}`, { key: h.b.readKey })).status).toBe(404);
        expect((await h.call('DELETE', `/api/v1/pages/${page.id}`)).status).toBe(204);
        expect((await h.call('GET', '/api/v1/pages/by-id')).status).toBe(404);
        const entry = (await h.store.audit.list({ organizationId: h.a.id, limit: 100 })).find(
          (e) => e.action === 'page.delete' && e.objectId === page.id,
        );
        expect(entry).toMatchObject({ objectLabel: 'by-id' });
      });

      it('answers 409 for a slug or custom domain already taken, even by another organization', async () => {
        expect((await h.call('POST', '/api/v1/pages', { body: { slug: 'beta', title: 'Mine' } })).status).toBe(409);
        await h.call('POST', '/api/v1/pages', { body: { slug: 'dom1', title: 'D', customDomain: 'one.example.com' } });
        const res = await h.call('POST', '/api/v1/pages', {
          body: { slug: 'dom2', title: 'D', customDomain: 'one.example.com' },
        });
        expect(res.status).toBe(409);
        expect(
          (await h.call('PATCH', '/api/v1/pages/survival', { body: { customDomain: 'one.example.com' } })).status,
        ).toBe(409);
      });

      it('answers 400 naming invalid fields', async () => {
        const res = await h.call('POST', '/api/v1/pages', {
          body: { slug: 'Bad Slug', title: '', customDomain: 'not a host', aiPolicy: 'maybe' },
        });
        expect(res.status).toBe(400);
        const paths = (await res.json()).errors.map((e: { path: string }) => e.path);
        expect(paths).toEqual(
          expect.arrayContaining(['body.slug', 'body.title', 'body.customDomain', 'body.aiPolicy']),
        );
        const patch = await h.call('PATCH', '/api/v1/pages/survival', { body: { slug: 'renamed' } });
        expect(patch.status).toBe(400);
      });

      it('refuses to change or delete a page warden.yaml manages (409), explaining where to edit it', async () => {
        const res = await h.call('PATCH', '/api/v1/pages/alpha', { body: { title: 'Hijacked' } });
        expect(res.status).toBe(409);
        expect(await res.json()).toMatchObject({
          type: 'https://warden.dev/problems/conflict',
          detail: expect.stringContaining('warden.yaml'),
        });
        expect((await h.call('DELETE', '/api/v1/pages/alpha')).status).toBe(409);
      });

      it('lets warden.yaml take over a page the API created when it declares the same slug', async () => {
        await h.call('POST', '/api/v1/pages', { body: { slug: 'takeover', title: 'From the API' } });
        await seed(h.store, `${ORG_A_WITH_TAKEOVER}`, T0);
        const page = await (await h.call('GET', '/api/v1/pages/takeover')).json();
        expect(page).toMatchObject({ title: 'From the file', managedBy: 'config' });
        expect((await h.call('PATCH', '/api/v1/pages/takeover', { body: { title: 'x' } })).status).toBe(409);
      });
    });

    describe('/api/v1/pages/{slug}/components', () => {
      it('adds components to an API page, in order, following a monitor by key', async () => {
        await h.call('POST', '/api/v1/pages', { body: { slug: 'network', title: 'Network' } });
        const before = h.events.length;
        let res = await h.call('POST', '/api/v1/pages/network/components', {
          body: { name: 'Lobby', monitor: 'lobby', group: 'Servers' },
        });
        expect(res.status).toBe(201);
        const lobby = await res.json();
        expect(lobby).toMatchObject({
          key: 'Lobby',
          name: 'Lobby',
          order: 0,
          group: 'Servers',
          monitorKey: 'lobby',
          monitorId: h.a.monitors.lobby!.id,
          managedBy: 'api',
        });
        res = await h.call('POST', '/api/v1/pages/network/components', { body: { key: 'web', name: 'Website' } });
        expect(await res.json()).toMatchObject({ key: 'web', order: 1, monitorId: null });
        const { components } = await (
          await h.call('GET', '/api/v1/pages/network/components', { key: h.a.readKey })
        ).json();
        expect(components.map((c: { key: string }) => c.key)).toEqual(['Lobby', 'web']);
        const page = await (await h.call('GET', '/api/v1/pages/network')).json();
        expect(h.events.slice(before)).toContainEqual({ type: 'page.changed', at: T0, pageId: page.id });
      });

      it('reads, changes and deletes a component', async () => {
        const { components } = await (await h.call('GET', '/api/v1/pages/network/components')).json();
        const web = components.find((c: { key: string }) => c.key === 'web');
        expect(await (await h.call('GET', `/api/v1/pages/network/components/${web.id}`)).json()).toMatchObject({
          name: 'Website',
        });
        const res = await h.call('PATCH', `/api/v1/pages/network/components/${web.id}`, {
          body: { name: 'Web', monitor: 'panel', order: 5, description: 'Site' },
        });
        expect(res.status).toBe(200);
        expect(await res.json()).toMatchObject({
          key: 'web',
          name: 'Web',
          monitorKey: 'panel',
          order: 5,
          description: 'Site',
        });
        expect(
          await (
            await h.call('PATCH', `/api/v1/pages/network/components/${web.id}`, { body: { monitor: null } })
          ).json(),
        ).toMatchObject({ monitorId: null });
        expect((await h.call('DELETE', `/api/v1/pages/network/components/${web.id}`)).status).toBe(204);
        expect((await h.call('GET', `/api/v1/pages/network/components/${web.id}`)).status).toBe(404);
      });

      it('adds API components to a config-managed page but refuses to change its config components', async () => {
        const res = await h.call('POST', '/api/v1/pages/alpha/components', { body: { key: 'extra', name: 'Extra' } });
        expect(res.status).toBe(201);
        const { components } = await (await h.call('GET', '/api/v1/pages/alpha/components')).json();
        const configured = components.find((c: { key: string }) => c.key === 'lobby');
        expect(configured.managedBy).toBe('config');
        expect(
          (await h.call('PATCH', `/api/v1/pages/alpha/components/${configured.id}`, { body: { name: 'X' } })).status,
        ).toBe(409);
        expect((await h.call('DELETE', `/api/v1/pages/alpha/components/${configured.id}`)).status).toBe(409);
      });

      it('answers 409 for a duplicate key and 400 for an unknown monitor', async () => {
        expect((await h.call('POST', '/api/v1/pages/network/components', { body: { name: 'Lobby' } })).status).toBe(
          409,
        );
        const res = await h.call('POST', '/api/v1/pages/network/components', {
          body: { name: 'Ghost', monitor: 'hub' },
        });
        expect(res.status).toBe(400);
        expect((await res.json()).errors).toEqual([{ path: 'body.monitor', message: 'no monitor with key "hub"' }]);
      });

      it("answers 404 for another organization's page or a component of another page", async () => {
        expect((await h.call('GET', '/api/v1/pages/beta/components')).status).toBe(404);
        expect((await h.call('POST', '/api/v1/pages/beta/components', { body: { name: 'X' } })).status).toBe(404);
        const { components } = await (await h.call('GET', '/api/v1/pages/alpha/components')).json();
        expect((await h.call('GET', `/api/v1/pages/network/components/${components[0].id}`)).status).toBe(404);
      });
    });
  });
}

/** Organization A's file, now also declaring the page "takeover". */
const ORG_A_WITH_TAKEOVER = `${ORG_A_YAML.trimEnd()}
  - slug: takeover
    title: From the file
`;
