// A page's forms in Brotli and gzip, compressed once per snapshot version: chosen by Accept-Encoding, each with its own ETag.
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Harness, startHarness } from '../../../../test/app-harness.js';
import { dialects } from '../../../../test/store-dialects.js';

const components = Array.from(
  { length: 12 },
  (_, i) => `      - { name: Server ${i}, monitor: m${i}, group: Group ${i % 3} }`,
).join('\n');
const monitors = Array.from(
  { length: 12 },
  (_, i) => `  - { key: m${i}, name: Server ${i}, type: tcp, config: { host: 127.0.0.1, port: ${20000 + i} } }`,
).join('\n');
const CONFIG = `
organization: { name: Acme }
monitors:
${monitors}
pages:
  - slug: acme
    title: Acme Network
    components:
${components}
`;

async function bytesOf(res: Response): Promise<Buffer> {
  return Buffer.from(await res.arrayBuffer());
}

// The variants do not depend on the store: one dialect.
const sqlite = dialects.find((d) => d.name === 'sqlite');
for (const dialect of sqlite ? [sqlite] : [])
  describe.skipIf(!dialect.available)('compressed page forms', () => {
    let h: Harness;
    beforeAll(async () => {
      h = await startHarness(dialect, CONFIG);
    });
    afterAll(() => h?.close());

    it('answers Brotli and gzip that decompress to exactly the plain bytes, each with its own ETag', async () => {
      for (const path of ['/api/v1/status/acme', '/s/acme', '/s/acme/embed', '/s/acme/status.md']) {
        const plain = await h.request(path);
        const identity = await bytesOf(plain);
        expect(identity.length, path).toBeGreaterThan(1024);
        expect(plain.headers.get('content-encoding'), path).toBeNull();
        expect(plain.headers.get('vary'), path).toMatch(/Accept-Encoding/);
        const etag = plain.headers.get('etag') as string;

        const br = await h.request(path, { headers: { 'accept-encoding': 'gzip, deflate, br' } });
        expect(br.headers.get('content-encoding'), path).toBe('br');
        expect(br.headers.get('vary'), path).toMatch(/Accept-Encoding/);
        expect(br.headers.get('etag'), path).toBe(`${etag.slice(0, -1)}-br"`);
        const brBytes = await bytesOf(br);
        expect(Number(br.headers.get('content-length')), path).toBe(brBytes.length);
        expect(brBytes.length, path).toBeLessThan(identity.length);
        expect(brotliDecompressSync(brBytes).equals(identity), path).toBe(true);

        const gz = await h.request(path, { headers: { 'accept-encoding': 'gzip' } });
        expect(gz.headers.get('content-encoding'), path).toBe('gzip');
        expect(gz.headers.get('etag'), path).toBe(`${etag.slice(0, -1)}-gz"`);
        expect(gunzipSync(await bytesOf(gz)).equals(identity), path).toBe(true);
      }
    });

    it('answers 304 to each variant’s own ETag only', async () => {
      const path = '/s/acme/status.json';
      const etag = (await h.request(path)).headers.get('etag') as string;
      const brTag = `${etag.slice(0, -1)}-br"`;
      const revalidated = await h.request(path, { headers: { 'accept-encoding': 'br', 'if-none-match': brTag } });
      expect(revalidated.status).toBe(304);
      expect(revalidated.headers.get('etag')).toBe(brTag);
      expect(revalidated.headers.get('vary')).toMatch(/Accept-Encoding/);
      // The plain bytes' tag does not stand for the Brotli bytes, nor the other way round.
      expect((await h.request(path, { headers: { 'accept-encoding': 'br', 'if-none-match': etag } })).status).toBe(200);
      expect((await h.request(path, { headers: { 'if-none-match': brTag } })).status).toBe(200);
      expect((await h.request(path, { headers: { 'if-none-match': etag } })).status).toBe(304);
      expect(
        (await h.request(path, { headers: { 'accept-encoding': 'gzip', 'if-none-match': `${etag.slice(0, -1)}-gz"` } }))
          .status,
      ).toBe(304);
    });

    it('keeps a new snapshot version’s variants apart from the last one’s', async () => {
      const path = '/api/v1/status/acme';
      const before = await h.request(path, { headers: { 'accept-encoding': 'br' } });
      await h.ingest.record({
        monitorId: h.monitors.m0!.id,
        ok: false,
        latencyMs: 0,
        error: 'refused',
        source: 'edge',
      });
      await h.pages.refreshAll();
      await new Promise((resolve) => setTimeout(resolve, 300));
      const after = await h.request(path, { headers: { 'accept-encoding': 'br' } });
      expect(after.headers.get('etag')).not.toBe(before.headers.get('etag'));
      const snapshot = JSON.parse(brotliDecompressSync(await bytesOf(after)).toString()) as {
        components: { state: string }[];
      };
      expect(snapshot.components[0]?.state).not.toBe('operational');
    });

    it('sends bodies under 1 KB as they are, saying they vary; images neither', async () => {
      const path = '/s/acme/api/v2/status.json';
      expect((await bytesOf(await h.request(path))).length).toBeLessThan(1024);
      const small = await h.request(path, { headers: { 'accept-encoding': 'br, gzip' } });
      expect(small.headers.get('content-encoding')).toBeNull();
      expect(small.headers.get('vary')).toBe('Accept-Encoding');
      const og = await h.request('/s/acme/og.png', { headers: { 'accept-encoding': 'br, gzip' } });
      expect(og.headers.get('content-type')).toBe('image/png');
      expect(og.headers.get('content-encoding')).toBeNull();
      expect(og.headers.get('vary')).toBe('Accept-Language');
    });

    it('compresses llms.txt and the reference docs the same way', async () => {
      for (const path of ['/llms.txt', '/llms-full.txt']) {
        const plain = await h.request(path);
        const identity = await bytesOf(plain);
        expect(plain.headers.get('vary'), path).toBe('Accept-Encoding');
        const br = await h.request(path, { headers: { 'accept-encoding': 'br' } });
        expect(br.headers.get('content-encoding'), path).toBe('br');
        expect(brotliDecompressSync(await bytesOf(br)).equals(identity), path).toBe(true);
        const tag = br.headers.get('etag') as string;
        expect(tag, path).toBe(`${(plain.headers.get('etag') as string).slice(0, -1)}-br"`);
        expect(
          (await h.request(path, { headers: { 'accept-encoding': 'br', 'if-none-match': tag } })).status,
          path,
        ).toBe(304);
      }
    });
  });
