// The organization API's answers over 1 KB come gzip-compressed when the client asks; pushes and small answers do not.
import { gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ApiHarness, openApiHarness } from '../../../test/api-app.js';
import { dialects } from '../../../test/store-dialects.js';

// Compression does not depend on the store: one dialect.
const sqlite = dialects.find((d) => d.name === 'sqlite');
for (const dialect of sqlite ? [sqlite] : [])
  describe.skipIf(!dialect.available)('compressing API answers', () => {
    let h: ApiHarness;
    let pushToken: string;
    beforeAll(async () => {
      h = await openApiHarness(dialect);
      for (let i = 0; i < 8; i++)
        expect(
          (
            await h.call('POST', '/api/v1/monitors', {
              body: {
                key: `web-${i}`,
                name: `Web ${i}`,
                type: 'tcp',
                config: { host: `web-${i}.example.com`, port: 443 },
              },
            })
          ).status,
        ).toBe(201);
      const beat = await h.call('POST', '/api/v1/monitors', {
        body: { key: 'cron', name: 'Cron', type: 'heartbeat', config: { graceSec: 3600 } },
      });
      pushToken = ((await beat.json()) as { pushToken: string }).pushToken;
    });
    afterAll(() => h?.close());

    it('gzips a JSON list over 1 KB, with its RateLimit headers, to exactly the plain bytes', async () => {
      const plain = await h.call('GET', '/api/v1/monitors', { key: h.a.readKey });
      const bytes = Buffer.from(await plain.arrayBuffer());
      expect(bytes.length).toBeGreaterThan(1024);
      expect(plain.headers.get('content-encoding')).toBeNull();
      expect(plain.headers.get('vary')).toMatch(/Accept-Encoding/);

      const gzipped = await h.call('GET', '/api/v1/monitors', {
        key: h.a.readKey,
        headers: { 'accept-encoding': 'gzip, br' },
      });
      expect(gzipped.status).toBe(200);
      expect(gzipped.headers.get('content-encoding')).toBe('gzip');
      expect(gzipped.headers.get('vary')).toMatch(/Accept-Encoding/);
      expect(gzipped.headers.get('ratelimit-limit')).not.toBeNull();
      expect(gzipped.headers.get('ratelimit-remaining')).not.toBeNull();
      const compressed = Buffer.from(await gzipped.arrayBuffer());
      expect(Number(gzipped.headers.get('content-length'))).toBe(compressed.length);
      expect(compressed.length).toBeLessThan(bytes.length / 2);
      expect(gunzipSync(compressed).equals(bytes)).toBe(true);
    });

    it('leaves answers under 1 KB and problem answers under 1 KB alone', async () => {
      const one = await h.call('GET', `/api/v1/monitors/${h.a.monitors.lobby!.id}`, {
        key: h.a.readKey,
        headers: { 'accept-encoding': 'gzip' },
      });
      expect(one.status).toBe(200);
      expect(Number(one.headers.get('content-length'))).toBeLessThan(1024);
      expect(one.headers.get('content-encoding')).toBeNull();
      const refused = await h.call('GET', '/api/v1/monitors', {
        key: 'wdk_nope',
        headers: { 'accept-encoding': 'gzip' },
      });
      expect(refused.status).toBe(401);
      expect(refused.headers.get('content-type')).toBe('application/problem+json');
      expect(refused.headers.get('content-encoding')).toBeNull();
    });

    it('never compresses a push answer', async () => {
      const pushed = await h.call('POST', `/api/push/${pushToken}`, {
        key: null,
        body: { players: 3 },
        headers: { 'accept-encoding': 'gzip, br' },
      });
      expect(pushed.status).toBe(200);
      expect(pushed.headers.get('content-encoding')).toBeNull();
      expect(pushed.headers.get('vary') ?? '').not.toMatch(/Accept-Encoding/);
    });
  });
