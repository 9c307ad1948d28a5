// The pre-router answers exactly as the app does: the same requests through a listener with the fast paths on and off
// give the same status, headers (but x-request-id and date) and body; and with them on, the hot ones never reach the app.
import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { App } from '../../src/http/env.js';
import { createRequestListener } from '../../src/http/pre-router.js';
import { createLogger } from '../../src/logger.js';
import { PUSH_LIMITS } from '../../src/services/push/limits.js';
import { type Harness, startHarness } from '../app-harness.js';
import { BAD_PUSH_BODIES, BAD_PUSH_QUERIES } from '../fakes/bad-pushes.js';
import { dialects } from '../store-dialects.js';

const TOKEN = 'wdp_parityHeartbeatToken012345';
const UNKNOWN = 'wdp_noMonitorHoldsThisToken0000';
const YAML = `
organization: { key: acme, name: Acme }
monitors:
  - { key: beat, name: Beat, type: heartbeat, pushToken: ${TOKEN} }
pages:
  - slug: acme
    title: Acme status
    customDomain: status.acme.test
    components: [{ name: Beat, monitor: beat }]
  - slug: cold
    title: Read by nobody yet
    components: [{ name: Beat, monitor: beat }]
`;

interface Ask {
  method?: string;
  path: string;
  headers?: Record<string, string>;
  body?: string;
}
interface Answer {
  status: number;
  headers: Record<string, string>;
  body: Buffer;
}

/** Framing and identity headers that differ by design: the id is per request, the date per second. */
const UNCOMPARED = new Set(['x-request-id', 'date']);

function send(base: string, ask: Ask): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = request(`${base}${ask.path}`, { method: ask.method ?? 'GET', headers: ask.headers ?? {} }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => {
        const headers = Object.fromEntries(
          Object.entries(res.headers)
            .filter(([name]) => !UNCOMPARED.has(name))
            .map(([k, v]) => [k, String(v)]),
        );
        resolve({ status: res.statusCode ?? 0, headers, body: Buffer.concat(chunks) });
      });
    });
    req.on('error', reject);
    req.end(ask.body);
  });
}

async function listen(server: Server): Promise<string> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

const FORMS = [
  '/s/acme',
  '/s/acme/',
  '/s/acme/status.json',
  '/s/acme/status.md',
  '/s/acme/feed.xml',
  '/s/acme/badge.svg',
  '/s/acme/badge.svg?players&style=flat-square',
  '/s/acme/og.png',
  '/s/acme/embed',
  '/s/acme/embed?theme=dark',
  '/api/v1/status/acme',
];

for (const dialect of dialects)
  describe.skipIf(!dialect.available)(`the pre-router and the app on ${dialect.name}`, () => {
    let h: Harness;
    const servers: Server[] = [];
    let fast: string;
    let slow: string;
    let appCalls = 0;

    beforeAll(async () => {
      h = await startHarness(dialect, YAML);
      const fetch = (...args: Parameters<App['fetch']>) => {
        appCalls++;
        return h.app.fetch(...args);
      };
      const counted = { fetch } as unknown as App;
      const logger = createLogger('silent');
      servers.push(createServer(createRequestListener(counted, { fastPaths: h.fastPaths, logger })));
      servers.push(createServer(createRequestListener(h.app, { fastPaths: [], logger })));
      fast = await listen(servers[0] as Server);
      slow = await listen(servers[1] as Server);
      // Warm every form (the pre-router only answers pages already rendered), og.png included.
      for (const path of FORMS) await send(slow, { path });
      await send(slow, { path: '/', headers: { host: 'status.acme.test' } });
    });
    afterAll(async () => {
      for (const server of servers) await new Promise((resolve) => server.close(resolve));
      await h?.close();
    });

    /** The same request to both; returns the pre-router's answer and whether it reached the app. */
    async function same(ask: Ask): Promise<{ answer: Answer; viaApp: boolean }> {
      const before = appCalls;
      const answer = await send(fast, ask);
      const viaApp = appCalls > before;
      const reference = await send(slow, ask);
      expect({ status: answer.status, headers: answer.headers }, `${ask.method ?? 'GET'} ${ask.path}`).toEqual({
        status: reference.status,
        headers: reference.headers,
      });
      expect(answer.body.equals(reference.body), `${ask.method ?? 'GET'} ${ask.path}: body`).toBe(true);
      return { answer, viaApp };
    }

    it('serves every form of a warm page itself, as the app would', async () => {
      for (const path of FORMS) {
        const { answer, viaApp } = await same({ path });
        expect(answer.status, path).toBe(200);
        expect(viaApp, path).toBe(false);
      }
      const negotiated = await same({ path: '/s/acme', headers: { accept: 'text/markdown' } });
      expect(negotiated.answer.headers['content-type']).toMatch(/markdown/);
      const onDomain = await same({ path: '/status.json', headers: { host: 'status.acme.test' } });
      expect(onDomain.viaApp).toBe(false);
    });

    it('builds a page nobody read yet and renders its forms itself, og.png too, with the bytes the app then serves', async () => {
      for (const path of FORMS.map((form) => form.replace('acme', 'cold'))) {
        const before = appCalls;
        const first = await send(fast, { path, headers: { 'accept-encoding': 'br' } });
        expect(first.status, path).toBe(200);
        expect(appCalls, path).toBe(before);
        const reference = await send(slow, { path, headers: { 'accept-encoding': 'br' } });
        expect(first.headers, path).toEqual(reference.headers);
        expect(first.body.equals(reference.body), `${path}: body`).toBe(true);
      }
    });

    it('answers 304 to a matching If-None-Match and HEAD without a body, as the app would', async () => {
      for (const path of FORMS) {
        const { answer } = await same({ path });
        const revalidated = await same({ path, headers: { 'if-none-match': answer.headers.etag as string } });
        expect(revalidated.answer.status, path).toBe(304);
        const head = await same({ method: 'HEAD', path });
        expect(head.answer.body.length, path).toBe(0);
      }
    });

    it('answers each Accept-Encoding with the same bytes and ETag as the app, Brotli and gzip decompressing to the plain bytes', async () => {
      const codings = ['br', 'gzip', 'identity', 'gzip, deflate, br', 'br;q=0.5, gzip', 'identity;q=0, *', '*;q=0'];
      for (const path of [...FORMS, '/s/acme/status.md?lang=de']) {
        const plain = (await same({ path })).answer;
        for (const coding of codings) {
          const { answer, viaApp } = await same({ path, headers: { 'accept-encoding': coding } });
          expect(viaApp, `${path} ${coding}`).toBe(false);
          const encoding = answer.headers['content-encoding'];
          const decoded =
            encoding === 'br'
              ? brotliDecompressSync(answer.body)
              : encoding === 'gzip'
                ? gunzipSync(answer.body)
                : answer.body;
          expect(decoded.equals(plain.body), `${path} ${coding}`).toBe(true);
          if (encoding !== undefined)
            expect(answer.headers.etag, `${path} ${coding}`).toBe(
              `${plain.headers.etag?.slice(0, -1)}-${encoding === 'br' ? 'br' : 'gz'}"`,
            );
          if (answer.headers['content-type'] !== 'image/png')
            expect(answer.headers.vary, `${path} ${coding}`).toMatch(/Accept-Encoding/);
          const revalidated = await same({
            path,
            headers: { 'accept-encoding': coding, 'if-none-match': answer.headers.etag as string },
          });
          expect(revalidated.answer.status, `${path} ${coding}`).toBe(304);
          expect(revalidated.viaApp).toBe(false);
        }
      }
      const json = (await same({ path: '/api/v1/status/acme', headers: { 'accept-encoding': 'gzip, br' } })).answer;
      expect(json.headers['content-encoding']).toBe('br');
    });

    it('keeps answering from memory after the page index is reloaded', async () => {
      await h.pages.refreshIndex();
      for (const path of FORMS) {
        const { answer, viaApp } = await same({ path, headers: { 'accept-encoding': 'br' } });
        expect(answer.status, path).toBe(200);
        expect(viaApp, path).toBe(false);
      }
    });

    it('answers health and readiness probes itself, as the app would', async () => {
      for (const ask of [{ path: '/healthz' }, { method: 'HEAD', path: '/healthz' }, { path: '/readyz' }]) {
        const { answer, viaApp } = await same(ask);
        expect(answer.status, ask.path).toBe(200);
        expect(viaApp, ask.path).toBe(false);
      }
      expect(JSON.parse((await send(fast, { path: '/readyz' })).body.toString())).toMatchObject({
        status: 'ready',
        database: dialect.name,
      });
    });

    it('leaves unknown slugs, other paths and preflights to the app', async () => {
      for (const ask of [
        { path: '/s/nope' },
        { path: '/s/nope/status.json' },
        { path: '/healthz?verbose' },
        {
          method: 'OPTIONS',
          path: '/s/acme',
          headers: { origin: 'https://x.test', 'access-control-request-method': 'GET' },
        },
      ])
        expect((await same(ask)).viaApp, ask.path).toBe(true);
    });

    it('stores heartbeats itself and answers them as the app would, the client’s request id kept', async () => {
      const get = await same({ path: `/api/push/${TOKEN}?status=down&msg=crashed&latency=7` });
      expect(get.answer.status).toBe(200);
      expect(get.viaApp).toBe(false);
      const post = await same({
        method: 'POST',
        path: `/api/push/${TOKEN}`,
        headers: { 'content-type': 'application/json' },
        body: '{"players":5,"tps":19.5}',
      });
      expect(post.answer.status).toBe(200);
      const empty = await same({ method: 'POST', path: `/api/push/${TOKEN}` });
      expect(empty.answer.status).toBe(200);
      const offered = await new Promise<string | undefined>((resolve) => {
        request(`${fast}/api/push/${TOKEN}`, { headers: { 'x-request-id': 'cron-42' } }, (res) =>
          resolve(res.headers['x-request-id'] as string),
        ).end();
      });
      expect(offered).toBe('cron-42');
    });

    it('refuses bad heartbeats and unknown tokens itself with the app’s problems', async () => {
      for (const [query] of BAD_PUSH_QUERIES)
        expect((await same({ path: `/api/push/${TOKEN}?${query}` })).answer.status, query).toBe(400);
      for (const [what, body] of BAD_PUSH_BODIES)
        expect(
          (
            await same({
              method: 'POST',
              path: `/api/push/${TOKEN}`,
              headers: { 'content-type': 'application/json' },
              body,
            })
          ).answer.status,
          what,
        ).toBe(400);
      const declaredTooLarge = await same({
        method: 'POST',
        path: `/api/push/${TOKEN}`,
        headers: { 'content-length': String(PUSH_LIMITS.bodyBytes + 1) },
        body: 'x'.repeat(PUSH_LIMITS.bodyBytes + 1),
      });
      expect(declaredTooLarge.answer.status).toBe(413);
      for (const method of ['GET', 'POST']) {
        const unknown = await same({ method, path: `/api/push/${UNKNOWN}` });
        expect(unknown.answer.status).toBe(404);
        expect(unknown.viaApp).toBe(false);
      }
      expect((await same({ path: '/api/push/not-a-token' })).answer.status).toBe(404);
    });

    // Last: it empties the token's bucket, and the harness's clock stands still.
    it('refuses a token over its rate with the app’s 429 and Retry-After, both paths sharing one bucket', async () => {
      let answered = 0;
      for (let i = 0; i < 100 && answered !== 429; i++)
        answered = (await send(fast, { path: `/api/push/${TOKEN}` })).status;
      expect(answered).toBe(429);
      for (const ask of [
        { path: `/api/push/${TOKEN}?status=up` },
        {
          method: 'POST',
          path: `/api/push/${TOKEN}`,
          headers: { 'content-type': 'application/json' },
          body: '{"players":1}',
        },
      ]) {
        const { answer, viaApp } = await same(ask);
        expect(answer.status).toBe(429);
        expect(answer.headers['retry-after']).toBe('1');
        expect(answer.headers['content-type']).toBe('application/problem+json');
        expect(viaApp).toBe(false);
      }
    });
  });
