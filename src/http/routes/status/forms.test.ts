// The feed, badge, Open Graph image and embed through the app: paths, query options, headers, caching, custom domains.
import { decode } from 'fast-png';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Harness, startHarness } from '../../../../test/app-harness.js';
import { dialects } from '../../../../test/store-dialects.js';
import { resolvePageTarget } from './page-paths.js';
import { fastFormResponse } from './serve-form.js';

const CONFIG = `
organization: { name: Acme }
monitors:
  - { key: lobby, name: Lobby, type: minecraft-java, config: { host: 127.0.0.1, port: 25565 } }
pages:
  - slug: acme
    title: Acme Network
    customDomain: status.acme.test
    components:
      - { name: Lobby, monitor: lobby }
  - slug: secret
    title: Secret
    password: hunter2-long
    components: [{ name: Lobby, monitor: lobby }]
`;

for (const dialect of dialects)
  describe.skipIf(!dialect.available)(`the other forms of a page on ${dialect.name}`, () => {
    let h: Harness;
    beforeAll(async () => {
      h = await startHarness(dialect, CONFIG);
      await h.ingest.record({
        monitorId: h.monitors.lobby!.id,
        ok: true,
        latencyMs: 20,
        data: { players: 42, maxPlayers: 100 },
        source: 'edge',
      });
    });
    afterAll(() => h.close());

    it('serves the RSS feed, cached like the other forms', async () => {
      const feed = await h.request('/s/acme/feed.xml');
      expect(feed.status).toBe(200);
      expect(feed.headers.get('content-type')).toBe('application/rss+xml; charset=utf-8');
      expect(feed.headers.get('cache-control')).toBe('public, max-age=30, s-maxage=30');
      expect(feed.headers.get('access-control-allow-origin')).toBe('*');
      const body = await feed.text();
      expect(body).toContain('<atom:link href="http://warden.test/s/acme/feed.xml" rel="self"');
      const again = await h.request('/s/acme/feed.xml', { headers: { 'if-none-match': feed.headers.get('etag')! } });
      expect(again.status).toBe(304);
    });

    it('serves the badge with its query options, ignoring unknown ones', async () => {
      const plain = await h.request('/s/acme/badge.svg');
      expect(plain.headers.get('content-type')).toBe('image/svg+xml; charset=utf-8');
      expect(plain.headers.get('content-security-policy')).toBe("default-src 'none'; style-src 'unsafe-inline'");
      expect(await plain.text()).toContain('<title>Acme Network: operational</title>');
      expect(await (await h.request('/s/acme/badge.svg?players')).text()).toContain(
        '<title>Acme Network: 42/100 online</title>',
      );
      const styled = await h.request('/s/acme/badge.svg?players&label=Lobby&style=flat-square&utm_source=x');
      expect(await styled.text()).toContain('<title>Lobby: 42/100 online</title>');
      const ignored = await h.request('/s/acme/badge.svg?utm_source=forum');
      expect(ignored.headers.get('etag')).toBe(plain.headers.get('etag'));
    });

    it('serves the Open Graph image, rendered once per snapshot version', async () => {
      const [a, b] = await Promise.all([
        h.request('/s/acme/og.png'),
        h.request('/og.png', { host: 'status.acme.test' }),
      ]);
      expect(a.headers.get('content-type')).toBe('image/png');
      expect(a.headers.get('etag')).toBe(b.headers.get('etag'));
      const png = decode(new Uint8Array(await a.arrayBuffer()));
      expect([png.width, png.height]).toEqual([1200, 630]);
      const page = h.pages.pageBySlug('acme')!;
      const cached = h.pages.peek(page)!;
      // The same bytes, not a second rendering: the basePath does not matter to the image.
      const first = await cached.render('og', '/s/acme');
      expect(await cached.render('og', '')).toBe(first);
      expect(cached.ready('og', '/s/acme')).toBe(first);
    });

    it('serves the embed for any site to frame, on the slug path and the custom domain', async () => {
      for (const [path, host] of [
        ['/s/acme/embed', undefined],
        ['/embed?theme=dark', 'status.acme.test'],
      ] as const) {
        const embed = await h.request(path, host ? { host } : {});
        expect(embed.status).toBe(200);
        expect(embed.headers.get('content-type')).toBe('text/html; charset=utf-8');
        expect(embed.headers.get('content-security-policy')).toMatch(/; frame-ancestors \*$/);
        expect(embed.headers.get('x-frame-options')).toBeNull();
        const html = await embed.text();
        expect(html).toContain('<b class="count">42 / 100</b> <span>online</span>');
        expect(html).toContain(host ? 'data-live="/live"' : 'data-live="/s/acme/live"');
        if (host) expect(html).toContain('data-theme="dark"');
      }
    });

    it('links the feed, the image and the live stream from the HTML page', async () => {
      const html = await (await h.request('/s/acme')).text();
      expect(html).toContain(
        '<link rel="alternate" type="application/rss+xml" href="/s/acme/feed.xml" title="Acme Network incidents">',
      );
      expect(html).toContain('<meta property="og:image" content="http://warden.test/s/acme/og.png">');
      expect(html).toContain('<meta name="twitter:card" content="summary_large_image">');
      expect(html).toContain('data-live="/s/acme/live"');
    });

    it('answers 404 in each form for an unknown page, HTML for the embed', async () => {
      for (const path of ['/s/nope/feed.xml', '/s/nope/badge.svg', '/s/nope/og.png'])
        expect((await h.request(path)).headers.get('content-type'), path).toBe('application/problem+json');
      const embed = await h.request('/s/nope/embed');
      expect(embed.status).toBe(404);
      expect(embed.headers.get('content-type')).toContain('text/html');
    });

    it('keeps protected pages protected in every form', async () => {
      for (const path of ['/s/secret/feed.xml', '/s/secret/badge.svg', '/s/secret/og.png', '/s/secret/embed'])
        expect((await h.request(path)).status, path).toBe(401);
      const ok = await h.request('/s/secret/badge.svg', { headers: { authorization: 'Bearer hunter2-long' } });
      expect(ok.status).toBe(200);
      expect(ok.headers.get('cache-control')).toBe('private, no-store');
    });

    it('answers a plain GET of the live stream with 426 Upgrade Required', async () => {
      const live = await h.request('/s/acme/live');
      expect(live.status).toBe(426);
      expect(live.headers.get('upgrade')).toBe('websocket');
      expect((await h.request('/live', { host: 'status.acme.test' })).status).toBe(426);
      expect((await h.request('/s/nope/live')).status).toBe(404);
    });

    it('serves warm forms, with their options, on the fast path', async () => {
      await h.request('/s/acme/badge.svg?players');
      const target = resolvePageTarget(h.pages, 'warden.test', '/s/acme/badge.svg', undefined, 'players&style=social')!;
      expect(target.options).toEqual({ players: '1', style: 'social' });
      const hit = fastFormResponse(h.pages, target, '/s/acme/badge.svg', undefined);
      expect(hit?.status).toBe(200);
      expect(Buffer.from(hit!.body!).toString()).toContain('42/100 online');
      const og = resolvePageTarget(h.pages, 'warden.test', '/s/acme/og.png', undefined)!;
      await h.request('/s/acme/og.png');
      expect(fastFormResponse(h.pages, og, '/s/acme/og.png', undefined)?.headers['content-type']).toBe('image/png');
    });
  });
