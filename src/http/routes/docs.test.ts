// The API reference at /docs: OpenAPI Explorer from local files, pointing at the OpenAPI document.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ApiHarness, openApiHarness } from '../../../test/api-app.js';
import { dialects } from '../../../test/store-dialects.js';

// The reference is served from the installed package, not the store: one dialect is enough.
describe('/docs', () => {
  let h: ApiHarness;
  beforeAll(async () => {
    h = await openApiHarness(dialects[0] as (typeof dialects)[number]);
  });
  afterAll(async () => {
    await h?.close();
  });

  it('serves the reference pointing at /api/openapi.json, from local files only', async () => {
    for (const path of ['/docs', '/docs/']) {
      const res = await h.call('GET', path, { key: null });
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8');
      // Scripts and requests from this origin only; no other site may frame the reference (clickjacking).
      const csp = res.headers.get('content-security-policy') ?? '';
      expect(csp).toContain("default-src 'self'");
      expect(csp).toContain("script-src 'self';");
      expect(csp).toContain("connect-src 'self'");
      expect(csp).toContain("frame-ancestors 'none'");
      expect(res.headers.get('x-frame-options')).toBe('DENY');
      expect(res.headers.get('referrer-policy')).toBe('strict-origin-when-cross-origin');
      expect(res.headers.get('x-content-type-options')).toBe('nosniff');
      const html = await res.text();
      expect(html).toContain('<script src="/docs/openapi-explorer.js"></script>');
      expect(html).toContain('spec-url="/api/openapi.json"');
      expect(html).not.toMatch(/https?:\/\//);
    }
    const init = await (await h.call('GET', '/docs/init.js', { key: null })).text();
    expect(init).toContain("setAttribute('server-url', window.location.origin)");
    expect(init).toContain("addEventListener('spec-loaded'");
  });

  it('serves the explorer bundle from the installed package', async () => {
    const bundle = await h.call('GET', '/docs/openapi-explorer.js', { key: null });
    expect(bundle.status).toBe(200);
    expect(bundle.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    expect(bundle.headers.get('cache-control')).toBe('public, max-age=86400');
    const text = await bundle.text();
    expect(text.length).toBeGreaterThan(100_000);
    expect(text).toContain('openapi-explorer');
  });

  it('serves nothing else from node_modules', async () => {
    for (const path of [
      '/docs/package.json',
      '/docs/../package.json',
      '/docs/index.js',
      '/docs/swagger-ui-bundle.js',
      '/docs/openapi-explorer.min.js',
    ])
      expect((await h.call('GET', path, { key: null })).status, path).toBe(404);
  });
});
