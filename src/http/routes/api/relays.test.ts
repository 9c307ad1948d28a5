import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ApiHarness, openApiHarness, T0 } from '../../../../test/api-app.js';
import { dialects } from '../../../../test/store-dialects.js';
import { hashSecret } from '../../../domain/tokens.js';

for (const dialect of dialects) {
  describe.skipIf(!dialect.available)(`relay and API key API on ${dialect.name}`, () => {
    let h: ApiHarness;
    beforeAll(async () => {
      h = await openApiHarness(dialect);
    });
    afterAll(async () => {
      await h?.close();
    });

    describe('/api/v1/relays', () => {
      it('creates a relay and returns its token once; only the hash is stored', async () => {
        const res = await h.call('POST', '/api/v1/relays', { body: { key: 'attic', name: 'Attic' } });
        expect(res.status).toBe(201);
        const relay = await res.json();
        expect(relay).toMatchObject({ key: 'attic', name: 'Attic', managedBy: 'api', lastSeenAt: null });
        expect(relay.token).toMatch(/^wdr_/);
        expect(relay.tokenPrefix).toBe(relay.token.slice(0, 12));
        expect((await h.store.relays.findByTokenHash(hashSecret(relay.token)))?.id).toBe(relay.id);
        const read = await (await h.call('GET', `/api/v1/relays/${relay.id}`, { key: h.a.readKey })).json();
        expect(read.token).toBeUndefined();
      });

      it("lists the organization's relays", async () => {
        const { relays } = await (await h.call('GET', '/api/v1/relays', { key: h.a.readKey })).json();
        expect(relays.map((r: { key: string; managedBy: string }) => [r.key, r.managedBy])).toEqual([
          ['attic', 'api'],
          ['basement', 'config'],
        ]);
      });

      it('renames, issues a new token and deletes a relay', async () => {
        const relay = await (await h.call('POST', '/api/v1/relays', { body: { key: 'shed', name: 'Shed' } })).json();
        expect(
          await (await h.call('PATCH', `/api/v1/relays/${relay.id}`, { body: { name: 'Garden shed' } })).json(),
        ).toMatchObject({ name: 'Garden shed' });
        const rotated = await (await h.call('POST', `/api/v1/relays/${relay.id}/token`)).json();
        expect(rotated.token).toMatch(/^wdr_/);
        expect(await h.store.relays.findByTokenHash(hashSecret(relay.token))).toBeUndefined();
        expect((await h.store.relays.findByTokenHash(hashSecret(rotated.token)))?.id).toBe(relay.id);
        const before = h.events.length;
        expect((await h.call('DELETE', `/api/v1/relays/${relay.id}`)).status).toBe(204);
        expect((await h.call('GET', `/api/v1/relays/${relay.id}`)).status).toBe(404);
        expect(h.events.slice(before)).toContainEqual({ type: 'monitors.changed', at: T0, organizationId: h.a.id });
      });

      it("addresses a relay by its key too: read, rename, token and delete; never another organization's", async () => {
        const relay = await (await h.call('POST', '/api/v1/relays', { body: { key: 'loft', name: 'Loft' } })).json();
        expect(await (await h.call('GET', '/api/v1/relays/loft')).json()).toMatchObject({ id: relay.id, key: 'loft' });
        expect(
          await (await h.call('PATCH', '/api/v1/relays/loft', { body: { name: 'Attic loft' } })).json(),
        ).toMatchObject({ id: relay.id, name: 'Attic loft' });
        expect((await (await h.call('POST', '/api/v1/relays/loft/token')).json()).token).toMatch(/^wdr_/);
        expect((await h.call('GET', '/api/v1/relays/cellar')).status).toBe(404);
        expect((await h.call('DELETE', '/api/v1/relays/loft')).status).toBe(204);
        expect((await h.call('GET', `/api/v1/relays/${relay.id}`)).status).toBe(404);
        // The test's clock stands still: find the entry among those of the same instant.
        const entry = (await h.store.audit.list({ organizationId: h.a.id, limit: 100 })).find(
          (e) => e.action === 'relay.delete' && e.objectLabel === 'loft',
        );
        expect(entry).toMatchObject({ action: 'relay.delete', objectId: relay.id, objectLabel: 'loft' });
      });

      it('refuses to delete a relay that runs monitors (409) until they move', async () => {
        const relay = await (await h.call('POST', '/api/v1/relays', { body: { key: 'busy', name: 'Busy' } })).json();
        const monitor = await (
          await h.call('POST', '/api/v1/monitors', {
            body: {
              key: 'on-busy',
              name: 'On busy',
              type: 'tcp',
              runOn: 'relay',
              relay: 'busy',
              config: { host: 'a.example', port: 1 },
            },
          })
        ).json();
        const res = await h.call('DELETE', `/api/v1/relays/${relay.id}`);
        expect(res.status).toBe(409);
        expect((await res.json()).detail).toContain('"on-busy"');
        await h.call('PATCH', `/api/v1/monitors/${monitor.id}`, { body: { runOn: 'edge' } });
        expect((await h.call('DELETE', `/api/v1/relays/${relay.id}`)).status).toBe(204);
      });

      it('refuses to change or delete a relay warden.yaml manages, but issues it a token', async () => {
        const { relays } = await (await h.call('GET', '/api/v1/relays')).json();
        const basement = relays.find((r: { key: string }) => r.key === 'basement');
        expect((await h.call('PATCH', `/api/v1/relays/${basement.id}`, { body: { name: 'x' } })).status).toBe(409);
        expect((await h.call('DELETE', `/api/v1/relays/${basement.id}`)).status).toBe(409);
        expect((await h.call('POST', `/api/v1/relays/${basement.id}/token`)).status).toBe(200);
      });

      it('answers 409 for a duplicate key, 400 for a bad one, 404 for another organization', async () => {
        expect((await h.call('POST', '/api/v1/relays', { body: { key: 'attic', name: 'Again' } })).status).toBe(409);
        const res = await h.call('POST', '/api/v1/relays', { body: { key: 'NO', name: '' } });
        expect((await res.json()).errors.map((e: { path: string }) => e.path)).toEqual(['body.key', 'body.name']);
        const { relays } = await (await h.call('GET', '/api/v1/relays', { key: h.b.readKey })).json();
        expect((await h.call('GET', `/api/v1/relays/${relays[0].id}`)).status).toBe(404);
        expect((await h.call('POST', `/api/v1/relays/${relays[0].id}/token`)).status).toBe(404);
      });
    });

    describe('/api/v1/api-keys', () => {
      it('creates a key and returns it once; the list shows prefixes, scopes and last use', async () => {
        const res = await h.call('POST', '/api/v1/api-keys', { body: { name: 'Dashboard', scope: 'read' } });
        expect(res.status).toBe(201);
        const created = await res.json();
        expect(created.key).toMatch(/^wdn_/);
        expect(created).toMatchObject({
          name: 'Dashboard',
          scope: 'read',
          prefix: created.key.slice(0, 12),
          lastUsedAt: null,
          revokedAt: null,
        });
        expect((await h.call('GET', '/api/v1/monitors', { key: created.key })).status).toBe(200);
        const { apiKeys } = await (await h.call('GET', '/api/v1/api-keys')).json();
        const listed = apiKeys.find((k: { id: string }) => k.id === created.id);
        expect(listed).toEqual({
          id: created.id,
          name: 'Dashboard',
          prefix: created.prefix,
          scope: 'read',
          createdAt: T0,
          lastUsedAt: T0,
          revokedAt: null,
          createdBy: null,
        });
        expect(JSON.stringify(apiKeys)).not.toContain(created.key);
      });

      it('defaults to the read scope', async () => {
        expect(await (await h.call('POST', '/api/v1/api-keys', { body: { name: 'Script' } })).json()).toMatchObject({
          scope: 'read',
        });
      });

      it('revokes a key: it stops working at once', async () => {
        const created = await (
          await h.call('POST', '/api/v1/api-keys', { body: { name: 'Temp', scope: 'write' } })
        ).json();
        expect((await h.call('DELETE', `/api/v1/api-keys/${created.id}`)).status).toBe(204);
        expect((await h.call('GET', '/api/v1/monitors', { key: created.key })).status).toBe(401);
        expect((await h.call('DELETE', `/api/v1/api-keys/${created.id}`)).status).toBe(404);
      });

      it('needs a write key even to list, and hides other organizations', async () => {
        expect((await h.call('GET', '/api/v1/api-keys', { key: h.a.readKey })).status).toBe(403);
        const { apiKeys } = await (await h.call('GET', '/api/v1/api-keys', { key: h.b.writeKey })).json();
        expect(apiKeys).toHaveLength(2);
        expect((await h.call('DELETE', `/api/v1/api-keys/${apiKeys[0].id}`)).status).toBe(404);
        expect((await h.call('GET', '/api/v1/monitors', { key: h.b.readKey })).status).toBe(200);
      });

      it('answers 400 for an unknown scope', async () => {
        const res = await h.call('POST', '/api/v1/api-keys', { body: { name: 'x', scope: 'admin' } });
        expect((await res.json()).errors.map((e: { path: string }) => e.path)).toEqual(['body.scope']);
      });
    });
  });
}
