// The public status page through the app: its JSON, Markdown and HTML forms, caching, CORS, custom domains, passwords, rebuilds.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Harness, startHarness } from '../../../../test/app-harness.js';
import { dialects } from '../../../../test/store-dialects.js';
import type { Snapshot } from '../../../domain/snapshot.js';

const CONFIG = `
organization: { name: Acme }
monitors:
  - { key: lobby, name: Lobby, type: minecraft-java, config: { host: 127.0.0.1, port: 25565 } }
  - { key: web, name: Web, type: http, config: { url: "http://127.0.0.1:1/" } }
pages:
  - slug: acme
    title: Acme Network
    description: Our servers
    customDomain: status.acme.test
    components:
      - { name: Lobby, monitor: lobby, group: Minecraft }
      - { name: Website, monitor: web, group: Web }
  - slug: secret
    title: Secret
    password: hunter2-long
    components: [{ name: Web, monitor: web }]
`;

for (const dialect of dialects)
  describe.skipIf(!dialect.available)(`public status pages on ${dialect.name}`, () => {
    let h: Harness;
    beforeAll(async () => {
      h = await startHarness(dialect, CONFIG);
      await h.ingest.record({
        monitorId: h.monitors.lobby!.id,
        ok: true,
        latencyMs: 42,
        data: { players: 12, maxPlayers: 100, version: '1.21.4', motd: 'Welcome' },
        source: 'edge',
      });
      await h.ingest.record({ monitorId: h.monitors.web!.id, ok: true, latencyMs: 80, source: 'edge' });
    });
    afterAll(() => h.close());

    it('serves the snapshot at /api/v1/status/{slug} and /s/{slug}/status.json, identically', async () => {
      const api = await h.request('/api/v1/status/acme');
      expect(api.status).toBe(200);
      expect(api.headers.get('content-type')).toBe('application/json; charset=utf-8');
      const snapshot = (await api.json()) as Snapshot;
      expect(snapshot.page).toMatchObject({ slug: 'acme', title: 'Acme Network', url: 'http://warden.test/s/acme' });
      expect(snapshot.overall).toEqual({ state: 'operational', label: 'All systems operational' });
      expect(snapshot.components.map((c) => [c.name, c.group, c.state])).toEqual([
        ['Lobby', 'Minecraft', 'operational'],
        ['Website', 'Web', 'operational'],
      ]);
      expect(snapshot.components[0]?.live).toMatchObject({
        latencyMs: 42,
        players: 12,
        maxPlayers: 100,
        version: '1.21.4',
        motd: 'Welcome',
      });
      expect(snapshot.components[0]?.days).toHaveLength(90);
      expect(snapshot.components[0]?.uptime['24h']).toBe(1);
      expect(snapshot.totals).toEqual({ players: 12, maxPlayers: 100 });
      expect(snapshot.generatedAt).toBe(h.clock.now());
      const relative = await h.request('/s/acme/status.json');
      expect(await relative.text()).toBe(JSON.stringify(snapshot));
    });

    it('serves Markdown at status.md and at /s/{slug} with Accept: text/markdown', async () => {
      const md = await h.request('/s/acme/status.md');
      expect(md.headers.get('content-type')).toBe('text/markdown; charset=utf-8');
      const body = await md.text();
      expect(body).toContain('# Acme Network');
      expect(body).toContain('Lobby');
      const negotiated = await h.request('/s/acme', { headers: { accept: 'text/markdown' } });
      expect(negotiated.headers.get('content-type')).toBe('text/markdown; charset=utf-8');
      expect(negotiated.headers.get('vary')).toBe('Accept, Accept-Language, Accept-Encoding');
      expect(await negotiated.text()).toBe(body);
    });

    it('serves the HTML page with the banner and components', async () => {
      const page = await h.request('/s/acme', { headers: { accept: 'text/html,*/*' } });
      expect(page.status).toBe(200);
      expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8');
      expect(page.headers.get('content-security-policy')).toContain("default-src 'none'");
      const html = await page.text();
      expect(html).toContain('data-testid="overall"');
      expect(html).toContain('Acme Network');
      expect(html.match(/data-testid="component"/g)).toHaveLength(2);
    });

    it('answers 404 for an unknown slug in every form', async () => {
      const api = await h.request('/api/v1/status/nope');
      expect(api.status).toBe(404);
      expect(api.headers.get('content-type')).toBe('application/problem+json');
      expect(await api.json()).toMatchObject({ status: 404, title: 'Page not found' });
      expect((await h.request('/s/nope/status.json')).status).toBe(404);
      expect((await h.request('/s/nope/status.md')).status).toBe(404);
      const html = await h.request('/s/nope');
      expect(html.status).toBe(404);
      expect(html.headers.get('content-type')).toContain('text/html');
      expect(await html.text()).toContain('nope');
    });

    it('sends Cache-Control, an ETag, and answers If-None-Match with 304', async () => {
      const first = await h.request('/s/acme/status.json');
      expect(first.headers.get('cache-control')).toBe('public, max-age=30, s-maxage=30');
      const etag = first.headers.get('etag');
      expect(etag).toMatch(/^"[A-Za-z0-9_-]+"$/);
      const again = await h.request('/s/acme/status.json', { headers: { 'if-none-match': etag! } });
      expect(again.status).toBe(304);
      expect(again.headers.get('etag')).toBe(etag);
      expect(await again.text()).toBe('');
      const other = await h.request('/s/acme/status.json', { headers: { 'if-none-match': '"something-else"' } });
      expect(other.status).toBe(200);
    });

    it('is CORS-enabled and answers preflight', async () => {
      expect((await h.request('/api/v1/status/acme')).headers.get('access-control-allow-origin')).toBe('*');
      expect((await h.request('/s/acme/status.md')).headers.get('access-control-allow-origin')).toBe('*');
      const preflight = await h.request('/api/v1/status/acme', {
        method: 'OPTIONS',
        headers: { origin: 'https://elsewhere.example', 'access-control-request-method': 'GET' },
      });
      expect(preflight.status).toBe(204);
      expect(preflight.headers.get('access-control-allow-origin')).toBe('*');
      expect(preflight.headers.get('access-control-allow-methods')).toContain('GET');
      expect(preflight.headers.get('access-control-allow-headers')).toContain('If-None-Match');
    });

    it('serves a page on its custom domain at / and the page-relative paths', async () => {
      const root = await h.request('/', { host: 'status.acme.test' });
      expect(root.status).toBe(200);
      const html = await root.text();
      expect(html).toContain('Acme Network');
      expect(html).toContain('href="/status.json"');
      const json = await h.request('/status.json', { host: 'Status.Acme.Test:443' });
      expect(((await json.json()) as Snapshot).page.slug).toBe('acme');
      expect((await h.request('/status.md', { host: 'status.acme.test' })).headers.get('content-type')).toContain(
        'text/markdown',
      );
      // Warden's own address shows its home page (routes/home.ts) instead, not this page.
      expect(await (await h.request('/', { host: 'warden.test' })).text()).not.toContain('href="/status.json"');
    });

    it('rebuilds the snapshot when a result changes a component', async () => {
      const before = (await (await h.request('/api/v1/status/acme')).json()) as Snapshot;
      // Watched, as the live hub watches a page with listeners: rebuilt on the results though nobody reads it meanwhile.
      const unwatch = h.pages.watch(h.pages.pageBySlug('acme')!.id);
      const websiteDown = new Promise<void>((resolve) => {
        const stop = h.pages.onSnapshot(({ page, snapshot }) => {
          if (page.slug !== 'acme' || snapshot.components[1]?.state !== 'down') return;
          stop();
          unwatch();
          resolve();
        });
      });
      h.clock.advance(30_000);
      await h.ingest.record({ monitorId: h.monitors.web!.id, ok: false, error: 'connection refused', source: 'edge' });
      h.clock.advance(30_000);
      await h.ingest.record({ monitorId: h.monitors.web!.id, ok: false, error: 'connection refused', source: 'edge' });
      await websiteDown;
      const after = (await (await h.request('/api/v1/status/acme')).json()) as Snapshot;
      expect(after.generatedAt).toBeGreaterThan(before.generatedAt);
      expect(after.components[1]).toMatchObject({ state: 'down', live: { message: 'connection refused' } });
      expect(after.overall).toEqual({ state: 'down', label: 'Major outage' });
    });

    describe('a password-protected page', () => {
      it('answers 401 in every form without the password, never cached publicly', async () => {
        for (const path of ['/api/v1/status/secret', '/s/secret/status.json', '/s/secret/status.md']) {
          const response = await h.request(path);
          expect(response.status, path).toBe(401);
          expect(response.headers.get('www-authenticate')).toBe('Bearer realm="status page"');
          expect(response.headers.get('cache-control')).toBe('private, no-store');
          expect(await response.text()).not.toContain('Web');
        }
        const html = await h.request('/s/secret');
        expect(html.status).toBe(401);
        const body = await html.text();
        expect(body).toContain('type="password"');
        expect(body).toContain('action="/s/secret/login"');
      });

      it('accepts the password as a Bearer token, privately cached', async () => {
        const ok = await h.request('/api/v1/status/secret', { headers: { authorization: 'Bearer hunter2-long' } });
        expect(ok.status).toBe(200);
        expect(ok.headers.get('cache-control')).toBe('private, no-store');
        expect((await h.request('/api/v1/status/secret', { headers: { authorization: 'Bearer wrong' } })).status).toBe(
          401,
        );
      });

      it('sets an HttpOnly, SameSite cookie from the password form', async () => {
        const wrong = await h.request('/s/secret/login', {
          method: 'POST',
          body: new URLSearchParams({ password: 'nope' }),
        });
        expect(wrong.status).toBe(401);
        expect(await wrong.text()).toContain('That password is not right.');
        const login = await h.request('/s/secret/login', {
          method: 'POST',
          body: new URLSearchParams({ password: 'hunter2-long' }),
        });
        expect(login.status).toBe(303);
        expect(login.headers.get('location')).toBe('/s/secret');
        const cookie = login.headers.get('set-cookie')!;
        expect(cookie).toMatch(
          /^warden_page_secret=\d+\.[A-Za-z0-9_-]+; Path=\/; Max-Age=\d+; HttpOnly; SameSite=Lax$/,
        );
        const page = await h.request('/s/secret', { headers: { cookie: cookie.split(';')[0]! } });
        expect(page.status).toBe(200);
        expect(page.headers.get('cache-control')).toBe('private, no-store');
        const forged = cookie.split(';')[0]!.replace(/.$/, (ch) => (ch === 'A' ? 'B' : 'A'));
        expect((await h.request('/s/secret', { headers: { cookie: forged } })).status).toBe(401);
      });
    });

    it('serves a warm page from memory without touching the database', async () => {
      const local = await startHarness(dialect, CONFIG);
      expect((await local.request('/api/v1/status/acme')).status).toBe(200);
      await local.opened.store.close();
      const again = await local.request('/s/acme/status.md');
      expect(again.status).toBe(200);
      await local.pages.stop();
      await local.opened.cleanup();
    });
  });
