import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Harness, startHarness } from '../../../test/app-harness.js';
import { AI_SECRETS, aiPagesConfig, HIDDEN_PAGES } from '../../../test/fakes/ai-pages.js';
import { dialects } from '../../../test/store-dialects.js';
import { DOCS_DIR, loadReferenceDocs } from '../../services/reference-docs.js';

const START = Date.UTC(2026, 10, 20, 12);
const BASE = 'http://warden.test';

for (const dialect of dialects)
  describe.skipIf(!dialect.available)(`/llms.txt and /llms-full.txt on ${dialect.name}`, () => {
    let h: Harness;
    beforeAll(async () => {
      h = await startHarness(dialect, aiPagesConfig(START), START);
      await h.ingest.record({
        monitorId: h.monitors.lobby!.id,
        ok: true,
        latencyMs: 40,
        data: { players: 7, maxPlayers: 50 },
        source: 'edge',
      });
    });
    afterAll(() => h.close());

    it('serves llms.txt as text/plain: the public pages’ Markdown, the docs and the API', async () => {
      const response = await h.request('/llms.txt');
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toBe('text/plain; charset=utf-8');
      const body = await response.text();
      expect(body.startsWith('# Warden\n\n> ')).toBe(true);
      expect(body).toContain(`- [Acme Network](${BASE}/s/acme/status.md): Our Minecraft servers\n`);
      expect(body).toContain(`- [Beta Realm](${BASE}/s/beta/status.md)`);
      for (const doc of loadReferenceDocs()) expect(body).toContain(`](${BASE}/docs/${doc.name}.md): `);
      expect(body).toContain(`](${BASE}/docs/states.md)`);
      expect(body).toContain(`](${BASE}/api/openapi.json)`);
      expect(body).toContain(`](${BASE}/docs)`);
      expect(body).toContain(`](${BASE}/mcp)`);
    });

    it('links only documents that resolve', async () => {
      const body = await (await h.request('/llms.txt')).text();
      const links = [...body.matchAll(/\]\((http:\/\/warden\.test[^)]*)\)/g)].map((m) => m[1] as string);
      expect(links.length).toBeGreaterThan(5);
      for (const link of links.filter((l) => !l.endsWith('/mcp'))) {
        const response = await h.request(new URL(link).pathname);
        expect(response.status, link).toBe(200);
      }
    });

    it('inlines each page’s Markdown and each doc in llms-full.txt', async () => {
      const response = await h.request('/llms-full.txt');
      expect(response.headers.get('content-type')).toBe('text/plain; charset=utf-8');
      const body = await response.text();
      const page = await (await h.request('/s/acme/status.md')).text();
      for (const line of page.split('\n').filter((l) => l !== '' && !l.startsWith('#'))) expect(body).toContain(line);
      expect(body).toContain(`### Acme Network\n\nSource: <${BASE}/s/acme/status.md>`);
      expect(body).toContain('Lobby lag spikes');
      const states = readFileSync(`${DOCS_DIR}states.md`, 'utf8');
      const paragraph = states.split('\n\n').find((p) => !p.startsWith('#') && !p.includes('](') && p.length > 80)!;
      expect(body).toContain(paragraph);
      expect(body).toContain(`| \`GET /api/v1/status/{slug}\` |`);
      expect(body).toContain(`Source: <${BASE}/api/openapi.json> (linked, not inlined`);
    });

    it('never lists a password-protected or aiPolicy disallow page, nor any secret', async () => {
      const hash = (await h.opened.store.pages.findBySlug('secret'))?.passwordHash;
      expect(hash).toEqual(expect.any(String));
      for (const path of ['/llms.txt', '/llms-full.txt']) {
        const body = await (await h.request(path)).text();
        for (const page of HIDDEN_PAGES) {
          expect(body, path).not.toContain(page.title);
          expect(body, path).not.toContain(`/s/${page.slug}`);
        }
        for (const secret of [...Object.values(AI_SECRETS), hash as string]) expect(body, path).not.toContain(secret);
      }
    });

    it('lists only the page itself on its custom domain, and nothing on a hidden page’s domain', async () => {
      for (const path of ['/llms.txt', '/llms-full.txt']) {
        const body = await (await h.request(path, { host: 'status.acme.test' })).text();
        expect(body).toContain('> The status page of Acme Network, served by Warden');
        expect(body).toContain(`${BASE}/s/acme/status.md`);
        expect(body).not.toContain('Beta Realm');
        const hidden = await (await h.request(path, { host: 'private.acme.test' })).text();
        expect(hidden).toContain('No status page is public here.');
        expect(hidden).not.toContain('Private Stuff');
        expect(hidden).not.toContain('Acme Network');
      }
    });

    it('is cached like the other public endpoints: ETag, 304, Cache-Control, CORS', async () => {
      for (const path of ['/llms.txt', '/llms-full.txt']) {
        const first = await h.request(path);
        expect(first.headers.get('cache-control')).toBe('public, max-age=30, s-maxage=30');
        expect(first.headers.get('access-control-allow-origin')).toBe('*');
        const etag = first.headers.get('etag')!;
        expect(etag).toMatch(/^"[A-Za-z0-9_-]+"$/);
        const again = await h.request(path, { headers: { 'if-none-match': etag } });
        expect(again.status).toBe(304);
        expect(again.headers.get('etag')).toBe(etag);
        expect(await again.text()).toBe('');
        expect((await h.request(path, { headers: { 'if-none-match': '"other"' } })).status).toBe(200);
        const preflight = await h.request(path, {
          method: 'OPTIONS',
          headers: { origin: 'https://x.example', 'access-control-request-method': 'GET' },
        });
        expect(preflight.status).toBe(204);
        expect(preflight.headers.get('access-control-allow-origin')).toBe('*');
      }
      // Each domain has its own file, and its own ETag.
      const main = (await h.request('/llms.txt')).headers.get('etag');
      const domain = (await h.request('/llms.txt', { host: 'status.acme.test' })).headers.get('etag');
      expect(domain).not.toBe(main);
    });

    it('follows the pages: a new public page appears once the page index is refreshed', async () => {
      // Written to the store directly, as another process would: this server learns of it by reloading its index.
      const { store } = h.opened;
      const hidden = (await store.pages.findBySlug('private'))!;
      await store.pages.update(hidden.id, { aiPolicy: 'allow' }, START + 1);
      await h.pages.refreshIndex();
      try {
        const body = await (await h.request('/llms.txt')).text();
        expect(body).toContain(`- [Private Stuff](${BASE}/s/private/status.md)`);
      } finally {
        await store.pages.update(hidden.id, { aiPolicy: 'disallow' }, START + 2);
        await h.pages.refreshIndex();
      }
      expect(await (await h.request('/llms.txt')).text()).not.toContain('Private Stuff');
    });
  });

// Reference documents come from docs/, not the store: one dialect is enough.
describe('/docs/{name}.md', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness(dialects[0]!, aiPagesConfig(START), START);
  });
  afterAll(() => h.close());

  it('serves each reference document from docs/ as Markdown, cached with an ETag', async () => {
    const response = await h.request('/docs/states.md');
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/markdown; charset=utf-8');
    expect(response.headers.get('access-control-allow-origin')).toBe('*');
    expect(await response.text()).toBe(readFileSync(`${DOCS_DIR}states.md`, 'utf8'));
    const again = await h.request('/docs/states.md', { headers: { 'if-none-match': response.headers.get('etag')! } });
    expect(again.status).toBe(304);
    expect((await h.request('/docs/monitors.md')).status).toBe(200);
  });

  it('answers 404 for anything else under /docs/*.md, unpublished docs included', async () => {
    for (const path of ['/docs/storage.md', '/docs/nope.md', '/docs/../package.json', '/docs/README.md'])
      expect((await h.request(path)).status, path).toBe(404);
  });

  it('leaves the API reference at /docs alone', async () => {
    const response = await h.request('/docs');
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toContain('text/html');
  });
});
