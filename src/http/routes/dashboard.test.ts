// Serving the built dashboard: index.html for every screen with a fresh nonce, hashed assets in the accepted encoding,
// nothing outside the build, nothing on a page's custom domain, and a clear answer when the build is missing.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliCompressSync, gunzipSync, gzipSync } from 'node:zlib';
import { OpenAPIHono } from '@hono/zod-openapi';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AppDeps, AppEnv } from '../env.js';
import { accepts, dashboardRoutes } from './dashboard.js';

const INDEX =
  '<!doctype html><meta property="csp-nonce" nonce="WARDEN_CSP_NONCE"><script type="module" src="/app/assets/index-abc123.js" nonce="WARDEN_CSP_NONCE"></script>';
const SCRIPT = `console.log(${JSON.stringify('x'.repeat(2000))});`;

function appOver(dir: string) {
  const app = new OpenAPIHono<AppEnv>();
  const pages = { pageByDomain: (host: string) => (host === 'status.acme.test' ? {} : undefined) };
  app.use('*', async (c, next) => {
    c.set('deps', { pages } as unknown as AppDeps);
    await next();
  });
  dashboardRoutes(app, dir);
  return app;
}

describe('the dashboard routes', () => {
  let dir: string;
  let app: ReturnType<typeof appOver>;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'warden-web-'));
    mkdirSync(join(dir, 'assets'));
    writeFileSync(join(dir, 'index.html'), INDEX);
    writeFileSync(join(dir, 'assets', 'index-abc123.js'), SCRIPT);
    writeFileSync(join(dir, 'assets', 'index-abc123.js.gz'), gzipSync(SCRIPT));
    writeFileSync(join(dir, 'assets', 'index-abc123.js.br'), brotliCompressSync(SCRIPT));
    writeFileSync(join(dir, 'assets', 'logo-def456.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>');
    writeFileSync(join(dir, 'secret.txt'), 'not an asset');
    app = appOver(dir);
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('answers every screen path with index.html, uncached, with a new nonce in both the page and its policy', async () => {
    const nonces = new Set<string>();
    for (const path of ['/app', '/app/', '/app/monitors?state=down', '/app/settings/members']) {
      const res = await app.request(path);
      expect(res.status, path).toBe(200);
      expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8');
      expect(res.headers.get('cache-control')).toBe('no-cache');
      expect(res.headers.get('x-frame-options')).toBe('DENY');
      const html = await res.text();
      const nonce = /nonce="([^"]+)"/.exec(html)?.[1] ?? '';
      expect(html).not.toContain('WARDEN_CSP_NONCE');
      expect(res.headers.get('content-security-policy')).toContain(`style-src 'self' 'nonce-${nonce}'`);
      expect(res.headers.get('content-security-policy')).toContain("script-src 'self';");
      nonces.add(nonce);
    }
    expect(nonces.size).toBe(4);
  });

  it('serves a hashed asset for a year in the best encoding the client accepts', async () => {
    const br = await app.request('/app/assets/index-abc123.js', {
      headers: { 'accept-encoding': 'gzip, deflate, br' },
    });
    expect(br.headers.get('content-encoding')).toBe('br');
    expect(br.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(br.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    expect(br.headers.get('vary')).toBe('Accept-Encoding');

    const gzip = await app.request('/app/assets/index-abc123.js', { headers: { 'accept-encoding': 'gzip, br;q=0' } });
    expect(gzip.headers.get('content-encoding')).toBe('gzip');
    expect(gunzipSync(Buffer.from(await gzip.arrayBuffer())).toString()).toBe(SCRIPT);

    const plain = await app.request('/app/assets/index-abc123.js');
    expect(plain.headers.get('content-encoding')).toBeNull();
    expect(await plain.text()).toBe(SCRIPT);

    const svg = await app.request('/app/assets/logo-def456.svg', { headers: { 'accept-encoding': 'br' } });
    expect(svg.headers.get('content-type')).toBe('image/svg+xml');
    expect(svg.headers.get('content-encoding')).toBeNull();
    expect(svg.headers.get('vary')).toBeNull();
  });

  it('answers 404 for anything under /app/assets/ that the build did not write', async () => {
    for (const path of [
      '/app/assets/index-000000.js',
      '/app/assets/%2e%2e%2fsecret.txt',
      '/app/assets/',
      '/app/assets/sub/index-abc123.js',
    ]) {
      const res = await app.request(path);
      expect(res.status, path).toBe(404);
      expect(res.headers.get('content-type'), path).toBe('application/problem+json');
    }
    // A dot segment is resolved before routing: /app/secret.txt is a screen path (index.html), never the file.
    expect(await (await app.request('/app/assets/../secret.txt')).text()).not.toContain('not an asset');
  });

  it('serves nothing of the dashboard on a status page’s custom domain', async () => {
    expect((await app.request('/app/monitors', { headers: { host: 'status.acme.test' } })).status).toBe(404);
    expect((await app.request('/app/assets/index-abc123.js', { headers: { host: 'status.acme.test' } })).status).toBe(
      404,
    );
  });

  it('says the dashboard is not built when dist/web is missing', async () => {
    const res = await appOver(join(dir, 'nowhere')).request('/app/monitors');
    expect(res.status).toBe(503);
    expect(((await res.json()) as { type: string }).type).toMatch(/dashboard-not-built$/);
  });
});

describe('accepts (Accept-Encoding)', () => {
  it('takes a listed coding unless its q is 0, and * for the rest', () => {
    expect(accepts('gzip, br', 'br')).toBe(true);
    expect(accepts('gzip;q=1.0, br;q=0', 'br')).toBe(false);
    expect(accepts('identity', 'gzip')).toBe(false);
    expect(accepts('*', 'gzip')).toBe(true);
    expect(accepts('*;q=0, gzip', 'br')).toBe(false);
    expect(accepts(undefined, 'gzip')).toBe(false);
  });
});
