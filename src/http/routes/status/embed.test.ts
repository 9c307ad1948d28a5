// The embed widget's options through the app: normalized into few cached renderings, one component by name or id, 404 for a component the page lacks.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Harness, startHarness } from '../../../../test/app-harness.js';
import { dialects } from '../../../../test/store-dialects.js';
import { resolvePageTarget } from './page-paths.js';
import { fastFormResponse } from './serve-form.js';

const CONFIG = `
organization: { name: Acme }
monitors:
  - { key: lobby, name: Lobby, type: minecraft-java, config: { host: 127.0.0.1, port: 25565 } }
  - { key: web, name: Web, type: http, config: { url: "http://127.0.0.1:9/" } }
pages:
  - slug: acme
    title: Acme Network
    customDomain: status.acme.test
    components:
      - { name: Lobby, monitor: lobby, group: Game servers }
      - { name: Website, monitor: web, group: Community }
`;

for (const dialect of dialects)
  describe.skipIf(!dialect.available)(`the embed's options on ${dialect.name}`, () => {
    let h: Harness;
    let lobbyId: string;
    beforeAll(async () => {
      h = await startHarness(dialect, CONFIG);
      await h.ingest.record({
        monitorId: h.monitors.lobby!.id,
        ok: true,
        latencyMs: 20,
        data: { players: 42, maxPlayers: 100 },
        source: 'edge',
      });
      const snapshot = (await (await h.request('/s/acme/status.json')).json()) as {
        components: { id: string; name: string }[];
      };
      lobbyId = snapshot.components.find((c) => c.name === 'Lobby')!.id;
    });
    afterAll(() => h.close());

    const etag = async (path: string, host?: string) =>
      (await h.request(path, host ? { host } : {})).headers.get('etag');

    it('normalizes the options: defaults, unknown values and other parameters give the same rendering', async () => {
      const compact = await etag('/s/acme/embed');
      for (const path of [
        '/s/acme/embed?variant=compact',
        '/s/acme/embed?theme=auto&utm_source=forum',
        '/s/acme/embed?variant=wide&theme=sepia',
      ])
        expect(await etag(path), path).toBe(compact);
      const full = await etag('/s/acme/embed?variant=full');
      expect(full).not.toBe(compact);
      expect(await etag('/s/acme/embed?utm_source=x&variant=full&theme=auto')).toBe(full);
      expect(await etag('/s/acme/embed?theme=dark&variant=full')).not.toBe(full);
    });

    it('serves the full widget: components by group, with players and state', async () => {
      const answer = await h.request('/s/acme/embed?variant=full');
      expect(answer.status).toBe(200);
      expect(answer.headers.get('content-security-policy')).toMatch(/; frame-ancestors \*$/);
      const html = await answer.text();
      expect(html).toMatch(
        /<h2 class="group">Game servers<\/h2><ul class="components"><li class="component t-operational"[^>]*>.*?Lobby.*?42 \/ 100 online.*?Operational/,
      );
      expect(html).toMatch(
        /<h2 class="group">Community<\/h2><ul class="components"><li class="component t-unknown"[^>]*>.*?Website.*?No data/,
      );
    });

    it('serves one component by name or id as one rendering, on the slug path and the custom domain', async () => {
      const byId = await h.request(`/s/acme/embed?component=${lobbyId}`);
      expect(byId.status).toBe(200);
      const html = await byId.text();
      expect(html).toContain(`data-variant="component" data-component="${lobbyId}"`);
      expect(html).toContain('<b class="count">42 / 100</b>');
      expect(html).toContain('latency 20 ms');
      for (const path of ['/s/acme/embed?component=Lobby', '/s/acme/embed?component=%20lobby%20&variant=full'])
        expect(await etag(path), path).toBe(byId.headers.get('etag'));
      expect(await (await h.request('/embed?component=lobby', { host: 'status.acme.test' })).text()).toContain(
        'data-live="/live"',
      );
    });

    it('answers 404 with a message inside the widget for a component the page lacks, framable, every such name one rendering', async () => {
      const missing = await h.request('/s/acme/embed?component=Nether');
      expect(missing.status).toBe(404);
      expect(missing.headers.get('content-type')).toBe('text/html; charset=utf-8');
      expect(missing.headers.get('content-security-policy')).toMatch(/; frame-ancestors \*$/);
      expect(missing.headers.get('x-frame-options')).toBeNull();
      expect(await missing.text()).toContain('This status page has no such component.');
      // A 404 is never answered as 304, and a thousand names are one rendering, not a thousand.
      const again = await h.request('/s/acme/embed?component=Nether', {
        headers: { 'if-none-match': missing.headers.get('etag')! },
      });
      expect(again.status).toBe(404);
      expect(await etag(`/s/acme/embed?component=${'x'.repeat(500)}`)).toBe(missing.headers.get('etag'));
      expect(await etag('/s/acme/embed?component=End&variant=full')).toBe(missing.headers.get('etag'));
      // The server's fast path answers the same.
      const target = resolvePageTarget(h.pages, 'warden.test', '/s/acme/embed', undefined, 'component=Nether')!;
      const fast = fastFormResponse(h.pages, target, '/s/acme/embed', undefined);
      expect(fast?.status).toBe(404);
      expect(fast?.headers.etag).toBe(missing.headers.get('etag'));
    });
  });
