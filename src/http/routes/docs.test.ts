// The API reference at /docs: Swagger UI from local files, pointing at the OpenAPI document.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ApiHarness, openApiHarness } from '../../../test/api-app.js';
import { dialects } from '../../../test/store-dialects.js';

// Swagger UI is served from the installed package, not the store: one dialect is enough.
describe('/docs', () => {
  let h: ApiHarness;
  beforeAll(async () => {
    h = await openApiHarness(dialects[0] as (typeof dialects)[number]);
  });
  afterAll(async () => {
    await h?.close();
  });

  it('serves Swagger UI pointing at /api/openapi.json, from local files only', async () => {
    for (const path of ['/docs', '/docs/']) {
      const res = await h.call('GET', path, { key: null });
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8');
      // No other site may frame the reference (clickjacking), as with the status pages.
      expect(res.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
      expect(res.headers.get('x-frame-options')).toBe('DENY');
      expect(res.headers.get('referrer-policy')).toBe('strict-origin-when-cross-origin');
      expect(res.headers.get('x-content-type-options')).toBe('nosniff');
      const html = await res.text();
      expect(html).toContain('/docs/swagger-ui-bundle.js');
      expect(html).not.toMatch(/https?:\/\//);
    }
    const init = await (await h.call('GET', '/docs/init.js', { key: null })).text();
    expect(init).toContain("url: '/api/openapi.json'");
  });

  it('serves the Swagger UI assets from the installed package', async () => {
    const bundle = await h.call('GET', '/docs/swagger-ui-bundle.js', { key: null });
    expect(bundle.status).toBe(200);
    expect(bundle.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    expect((await bundle.arrayBuffer()).byteLength).toBeGreaterThan(100_000);
    const css = await h.call('GET', '/docs/swagger-ui.css', { key: null });
    expect(css.headers.get('content-type')).toBe('text/css; charset=utf-8');
  });

  it('serves nothing else from node_modules', async () => {
    for (const path of ['/docs/package.json', '/docs/../package.json', '/docs/index.js'])
      expect((await h.call('GET', path, { key: null })).status, path).toBe(404);
  });
});
