// A page's branding through the API and its public paths: uploads (type from the bytes, caps, SVG), how they are
// served and cached, the branding fields' validation, and the policy and stylesheet of a branded page.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ApiHarness, openApiHarness } from '../../../../test/api-app.js';
import { HOSTILE_SVG, icoOf, solidPng } from '../../../../test/fakes/images.js';
import { dialects } from '../../../../test/store-dialects.js';
import { BRANDING_LIMITS } from '../../../domain/branding.js';

const LOGO = solidPng('#12b886');
/** A page the API made (warden.yaml's pages answer 409 to a change). */
const PAGE = '/api/v1/pages/brand';

for (const dialect of dialects) {
  describe.skipIf(!dialect.available)(`page branding on ${dialect.name}`, () => {
    let h: ApiHarness;
    beforeAll(async () => {
      h = await openApiHarness(dialect);
      await h.pages.start();
      expect((await h.call('POST', '/api/v1/pages', { body: { slug: 'brand', title: 'Brand status' } })).status).toBe(
        201,
      );
      await h.pages.refreshIndex();
    });
    afterAll(async () => {
      await h?.close();
    });

    const upload = (name: string, body: Uint8Array, type = 'application/octet-stream', slug = 'brand') =>
      h.call('PUT', `/api/v1/pages/${slug}/assets/${name}`, { body, headers: { 'content-type': type } });
    const get = (path: string, headers: Record<string, string> = {}) =>
      h.app.request(`http://warden.test${path}`, { headers: { host: 'warden.test', ...headers } });
    /** The public page once its cache has rebuilt after a change (a write publishes page.changed; the rebuild follows). */
    async function pageWhere(check: (html: string) => boolean, path = '/s/brand'): Promise<Response> {
      for (let i = 0; i < 200; i++) {
        const res = await get(path);
        if (check(await res.clone().text())) return res;
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
      throw new Error(`${path} never matched`);
    }

    it('takes a logo of any declared type, recognised by its bytes, and the page shows it at a versioned path cached for good', async () => {
      const res = await upload('logo', LOGO, 'text/plain');
      expect(res.status, await res.clone().text()).toBe(200);
      const asset = await res.json();
      expect(asset).toMatchObject({
        name: 'logo',
        contentType: 'image/png',
        path: expect.stringMatching(/^\/assets\/logo\?v=[0-9a-f]{16}$/),
      });
      await pageWhere((html) =>
        html.includes(`<img class="brand-logo" src="/s/brand${asset.path}" alt="Brand status"`),
      );

      const served = await get(`/s/brand${asset.path}`);
      expect(served.status).toBe(200);
      expect(served.headers.get('content-type')).toBe('image/png');
      expect(served.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
      expect(served.headers.get('x-content-type-options')).toBe('nosniff');
      expect(served.headers.get('content-security-policy')).toBe(
        "default-src 'none'; style-src 'unsafe-inline'; sandbox",
      );
      expect(Buffer.from(await served.arrayBuffer()).equals(Buffer.from(LOGO))).toBe(true);
      // Without the version (or an old one) it may change at any time: a short max-age, and a 304 on its ETag.
      const unversioned = await get('/s/brand/assets/logo');
      expect(unversioned.headers.get('cache-control')).toBe('public, max-age=30, s-maxage=30');
      expect(
        (await get('/s/brand/assets/logo', { 'if-none-match': served.headers.get('etag') as string })).status,
      ).toBe(304);

      const { entries } = await (await h.call('GET', '/api/v1/audit?objectType=page&limit=10')).json();
      expect(entries.find((e: { action: string }) => e.action === 'page.upload-asset')).toMatchObject({
        detail: { name: 'logo', contentType: 'image/png' },
      });
      expect((await (await h.call('GET', `${PAGE}/assets`)).json()).assets).toEqual([asset]);
    });

    it('refuses what is not an image it takes, naming the body: text, an ICO as a logo, nothing at all', async () => {
      for (const [name, body] of [
        ['logo', Buffer.from('GIF? no, just text')],
        ['logo', icoOf()],
        ['favicon', new Uint8Array(0)],
      ] as const) {
        const res = await upload(name, body, 'image/png');
        expect(res.status, `${name}: ${body.length} bytes`).toBe(400);
        expect(res.headers.get('content-type')).toBe('application/problem+json');
        expect((await res.json()).errors[0]).toMatchObject({
          path: 'body',
          message: expect.stringContaining('PNG, JPEG, WebP, GIF'),
        });
      }
      expect((await upload('favicon', icoOf(), 'image/vnd.microsoft.icon')).status).toBe(200);
      expect((await upload('wallpaper', LOGO)).status).toBe(400);
    });

    it('refuses an image over its cap before reading it all (413 naming the limit), by Content-Length or by counting', async () => {
      const big = new Uint8Array(BRANDING_LIMITS.logoBytes + 1);
      big.set(LOGO);
      const declared = await upload('logo', big);
      expect(declared.status).toBe(413);
      expect((await declared.json()).detail).toBe('A logo must be at most 256 KB (262144 bytes).');
      // A stream without a length is counted as it comes, and dropped past the cap.
      const chunk = new Uint8Array(16 * 1024);
      let sent = 0;
      const stream = new ReadableStream<Uint8Array>({
        pull(controller) {
          sent += chunk.length;
          if (sent > 4 * 1024 * 1024) controller.close();
          else controller.enqueue(chunk);
        },
      });
      const counted = await h.app.request('/api/v1/pages/brand/assets/favicon', {
        method: 'PUT',
        headers: { authorization: `Bearer ${h.a.writeKey}`, 'content-type': 'image/png' },
        body: stream,
        duplex: 'half',
      } as RequestInit);
      expect(counted.status).toBe(413);
      expect((await counted.json()).detail).toBe('A favicon must be at most 64 KB (65536 bytes).');
      expect(sent).toBeLessThan(BRANDING_LIMITS.faviconBytes * 4);
    });

    it('takes an SVG, serves it sandboxed, and the page only ever loads it as an image', async () => {
      const res = await upload('favicon', HOSTILE_SVG, 'image/svg+xml');
      expect(res.status).toBe(200);
      const { path } = await res.json();
      const html = await (await pageWhere((text) => text.includes(`<link rel="icon" href="/s/brand${path}">`))).text();
      expect(html).not.toContain('alert(');
      const served = await get(`/s/brand${path}`);
      expect(served.headers.get('content-type')).toBe('image/svg+xml');
      expect(served.headers.get('content-security-policy')).toBe(
        "default-src 'none'; style-src 'unsafe-inline'; sandbox",
      );
      expect(served.headers.get('x-content-type-options')).toBe('nosniff');
    });

    it('removes a logo: the page shows its title again and the path answers 404', async () => {
      expect((await h.call('DELETE', `${PAGE}/assets/logo`)).status).toBe(204);
      await pageWhere((html) => html.includes('<h1>Brand status</h1>'));
      expect((await get('/s/brand/assets/logo')).status).toBe(404);
      // Nothing left to remove changes nothing.
      expect((await h.call('DELETE', `${PAGE}/assets/logo`)).status).toBe(204);
    });

    it.each([
      [
        'an accent below WCAG AA on white',
        { branding: { accentColor: '#ffcc00' } },
        'body.branding.accentColor',
        /contrast 1\.\d+:1 .* below WCAG AA/,
      ],
      [
        'a link to javascript:',
        { branding: { links: [{ label: 'Play', url: 'javascript:alert(1)' }] } },
        'body.branding.links[0].url',
        /http/,
      ],
      [
        'a stylesheet over 32 KB',
        { customCss: `a{}${' '.repeat(BRANDING_LIMITS.customCssBytes)}` },
        'body.customCss',
        /32|32768/,
      ],
      [
        'a stylesheet closing a style element',
        { customCss: 'h1{color:red}</style><script>alert(1)</script>' },
        'body.customCss',
        /<\/style/,
      ],
    ])('refuses %s, naming the field', async (_what, body, path, message) => {
      const res = await h.call('PATCH', PAGE, { body });
      expect(res.status).toBe(400);
      const issue = (await res.json()).errors.find((e: { path: string }) => e.path === path);
      expect(issue?.message).toMatch(message);
    });

    it('serves a branded page under a policy allowing its stylesheet and its image hosts, and the stylesheet itself', async () => {
      const css = 'h1{letter-spacing:.1em}';
      const patched = await h.call('PATCH', PAGE, {
        body: {
          branding: {
            accentColor: '#5b2a86',
            logoUrl: 'https://cdn.example.com/brand.png',
            links: [{ label: 'Discord', url: 'https://discord.gg/brand' }],
          },
          customCss: css,
        },
      });
      expect(patched.status, await patched.clone().text()).toBe(200);
      const res = await pageWhere((html) => html.includes('custom.css?v='));
      const policy = res.headers.get('content-security-policy') as string;
      expect(policy).toMatch(/style-src 'sha256-[^']+' 'sha256-[^']+' 'self';/);
      expect(policy).toContain("img-src 'self' data: https://cdn.example.com;");
      expect(policy).toContain("frame-ancestors 'none'");
      const html = await res.text();
      expect(html).toContain(`content="${policy.replace("; frame-ancestors 'none'", '').replaceAll("'", '&#39;')}"`);
      const href = /<link rel="stylesheet" href="([^"]+)">/.exec(html)?.[1] as string;
      const sheet = await get(href);
      expect(sheet.headers.get('content-type')).toBe('text/css; charset=utf-8');
      expect(sheet.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
      expect(await sheet.text()).toBe(css);
      // Removing the stylesheet removes its link, and its path answers 404.
      expect((await h.call('PATCH', PAGE, { body: { customCss: null } })).status).toBe(200);
      await pageWhere((text) => !text.includes('custom.css'));
      expect((await get('/s/brand/custom.css')).status).toBe(404);
    });

    it('serves the assets at the root of the verified custom domain, and behind the password of a protected page', async () => {
      expect((await upload('logo', LOGO)).status).toBe(200);
      await pageWhere((html) => html.includes('class="brand-logo" src="/s/brand/assets/logo?v='));
      h.clock.advance(1000);
      const page = await h.store.pages.findBySlug('brand');
      await h.store.pages.update(
        page?.id as string,
        { customDomain: 'status.brand.test', customDomainVerifiedAt: h.clock.now() },
        h.clock.now(),
      );
      await h.pages.refreshIndex();
      const onDomain = await h.app.request('http://status.brand.test/assets/logo', {
        headers: { host: 'status.brand.test' },
      });
      expect(onDomain.status, await onDomain.clone().text()).toBe(200);
      expect(onDomain.headers.get('content-type')).toBe('image/png');

      expect((await h.call('PATCH', PAGE, { body: { password: 'hunter2-brand' } })).status).toBe(200);
      await h.pages.refreshIndex();
      const locked = await get('/s/brand/assets/logo');
      expect(locked.status).toBe(401);
      expect(locked.headers.get('content-type')).toBe('application/problem+json');
      const open = await get('/s/brand/assets/logo', { authorization: 'Bearer hunter2-brand' });
      expect(open.status).toBe(200);
      expect(open.headers.get('cache-control')).toMatch(/^private/);
    });

    it("answers 404 for another organization's page", async () => {
      const res = await h.call('PUT', '/api/v1/pages/beta/assets/logo', {
        body: LOGO,
        headers: { 'content-type': 'image/png' },
      });
      expect(res.status).toBe(404);
    });
  });
}
