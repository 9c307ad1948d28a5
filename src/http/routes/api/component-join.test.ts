// A component's join setting through the API, and the join and badges the public snapshot then shows.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { type ApiHarness, openApiHarness } from '../../../../test/api-app.js';
import { dialects } from '../../../../test/store-dialects.js';

for (const dialect of dialects) {
  describe.skipIf(!dialect.available)(`component join API on ${dialect.name}`, () => {
    let h: ApiHarness;
    beforeAll(async () => {
      h = await openApiHarness(dialect);
      await h.pages.start();
      await h.call('POST', '/api/v1/pages', { body: { slug: 'games', title: 'Games' } });
      const monitor = { name: 'CS', type: 'source', config: { host: 'cs.example.com', port: 27016 } };
      await h.call('POST', '/api/v1/monitors', { body: { ...monitor, key: 'cs' } });
    });
    afterAll(async () => {
      await h?.close();
    });

    /** The public snapshot's components once the page cache has rebuilt after a change and `check` holds of them. */
    const status = async (check: (components: { join: unknown; badges: unknown }[]) => boolean = () => true) => {
      let components: { join: unknown; badges: unknown }[] = [];
      await vi.waitFor(async () => {
        const res = await h.call('GET', '/api/v1/status/games', { key: null });
        components = res.status === 200 ? (await res.json()).components : [];
        expect(components.length > 0 && check(components)).toBe(true);
      });
      return components;
    };

    it('derives the join from the monitor by default, with its badges from the last check', async () => {
      const res = await h.call('POST', '/api/v1/pages/games/components', { body: { name: 'CS', monitor: 'cs' } });
      expect(await res.json()).toMatchObject({ key: 'CS', join: 'auto' });
      const { id } = await (await h.call('GET', '/api/v1/monitors/cs')).json();
      await h.ingest.record({
        monitorId: id,
        ok: true,
        latencyMs: 5,
        message: '24/24 players',
        data: { players: 24, maxPlayers: 24, passwordProtected: true, gamePort: 27015 },
        source: 'edge',
      });
      await h.ingest.flush();
      const [cs] = await status((list) => ((list[0]?.badges ?? []) as unknown[]).length > 0);
      expect(cs?.join).toEqual({
        kind: 'steam',
        label: 'cs.example.com:27015',
        address: 'cs.example.com:27015',
        url: 'steam://connect/cs.example.com:27015',
      });
      expect(cs?.badges).toEqual([{ kind: 'full' }, { kind: 'password' }]);
    });

    it('takes a custom address or link, hides the join, and refuses other schemes', async () => {
      const { components } = await (await h.call('GET', '/api/v1/pages/games/components')).json();
      const path = `/api/v1/pages/games/components/${components[0].id}`;
      let res = await h.call('PATCH', path, { body: { join: { url: 'https://cfx.re/join/abc123' } } });
      expect(res.status).toBe(200);
      expect(await res.json()).toMatchObject({ join: { url: 'https://cfx.re/join/abc123' } });
      expect((await status((list) => JSON.stringify(list[0]?.join).includes('cfx')))[0]?.join).toEqual({
        kind: 'link',
        label: 'cfx.re/join/abc123',
        url: 'https://cfx.re/join/abc123',
      });
      res = await h.call('PATCH', path, { body: { join: 'hidden' } });
      expect(await res.json()).toMatchObject({ join: 'hidden' });
      expect((await status((list) => list[0]?.join === null))[0]?.join).toBeNull();
      res = await h.call('PATCH', path, { body: { join: { url: 'javascript:alert(1)' } } });
      expect(res.status).toBe(400);
      expect(JSON.stringify(await res.json())).toContain('expected a steam:// or https:// URL');
    });
  });
}
