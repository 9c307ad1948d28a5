import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type Harness, startHarness } from '../../../../test/app-harness.js';
import { BAD_PUSH_BODIES, BAD_PUSH_QUERIES } from '../../../../test/fakes/bad-pushes.js';
import { dialects } from '../../../../test/store-dialects.js';
import type { Monitor } from '../../../domain/monitor.js';
import { createLogger } from '../../../logger.js';
import { type Ingest, IngestOverloadedError } from '../../../runner/ingest.js';
import { PUSH_LIMITS } from '../../../services/push/limits.js';
import { createRequestListener, type FastPath } from '../../pre-router.js';
import { pushFastPath } from './fast-path.js';

const TOKEN = 'wdp_fastPathHeartbeatToken0123';
const CONFIG = `
organization: { key: acme, name: Acme }
monitors:
  - { key: lobby, name: Lobby, type: heartbeat, pushToken: ${TOKEN} }
`;

for (const dialect of dialects) {
  describe.skipIf(!dialect.available)(`the push fast path (node:http, before the router) on ${dialect.name}`, () => {
    let h: Harness;
    let server: Server;
    let base: string;
    let lobby: Monitor;
    /** Requests the fast path left to the app. */
    let viaApp: number;
    let ingest: Ingest;

    beforeEach(async () => {
      h = await startHarness(dialect, CONFIG);
      lobby = h.monitors.lobby as Monitor;
      ingest = h.ingest;
      const push = pushFastPath({
        ...h.context,
        ingest: { ...h.ingest, record: (input) => ingest.record(input) },
        pushTokens: h.pushTokens,
        pushLimiter: h.pushLimiter,
      });
      const counted: FastPath = {
        name: push.name,
        answer(req) {
          const answer = push.answer(req);
          if (answer === undefined) viaApp++;
          return answer;
        },
      };
      viaApp = 0;
      server = createServer(createRequestListener(h.app, { fastPaths: [counted], logger: createLogger('silent') }));
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    });
    afterEach(async () => {
      await new Promise((resolve) => server.close(resolve));
      await h.close();
    });

    const checks = () => h.opened.store.checks.list(lobby.id, { from: 0, to: h.clock.now() + 1, limit: 100 });

    it('answers a good GET and POST itself, with the body and headers the app would send', async () => {
      const get = await fetch(`${base}/api/push/${TOKEN}?status=down&msg=crashed&latency=7`, {
        headers: { 'x-request-id': 'cron-42' },
      });
      expect(get.status).toBe(200);
      expect(get.headers.get('content-type')).toBe('application/json');
      expect(get.headers.get('cache-control')).toBe('no-store');
      expect(get.headers.get('access-control-allow-origin')).toBe('*');
      expect(get.headers.get('x-request-id')).toBe('cron-42');
      const body = await get.json();
      expect(body).toEqual({ ok: true, monitor: lobby.id, state: 'down', checkedAt: expect.any(Number) });

      const post = await fetch(`${base}/api/push/${TOKEN}`, {
        method: 'POST',
        body: JSON.stringify({ players: 5, maxPlayers: 10, tps: 20, seed: 'x' }),
      });
      expect(post.status).toBe(200);
      expect(viaApp).toBe(0);
      const [latest, first] = await checks();
      expect(first).toMatchObject({ ok: false, error: 'crashed', latencyMs: 7 });
      expect(latest).toMatchObject({ ok: true, data: { players: 5, maxPlayers: 10, tps: 20, seed: 'x' } });

      // The app's own answer to the same ping has the same shape and headers.
      const fromApp = await h.request(`/api/push/${TOKEN}`);
      expect(Object.keys(await fromApp.json())).toEqual(Object.keys(body));
      for (const name of ['content-type', 'cache-control', 'access-control-allow-origin'])
        expect(fromApp.headers.get(name)).toBe(get.headers.get(name));
    });

    it('refuses bad input and unknown tokens itself with the app’s problems, and leaves malformed tokens and preflights to the app', async () => {
      for (const [query, path] of BAD_PUSH_QUERIES) {
        const res = await fetch(`${base}/api/push/${TOKEN}?${query}`);
        expect(res.status, query).toBe(400);
        expect(res.headers.get('content-type')).toBe('application/problem+json');
        expect((await res.json()).errors.map((e: { path: string }) => e.path)).toContain(path);
      }
      for (const [what, text, path] of BAD_PUSH_BODIES) {
        const res = await fetch(`${base}/api/push/${TOKEN}`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: text,
        });
        expect(res.status, what).toBe(400);
        expect((await res.json()).errors.map((e: { path: string }) => e.path)).toContain(path);
      }
      const get404 = await fetch(`${base}/api/push/wdp_notAKnownTokenAtAll0000000`);
      expect(get404.status).toBe(404);
      expect(get404.headers.get('content-type')).toBe('application/problem+json');
      const post404 = await fetch(`${base}/api/push/wdp_notAKnownTokenAtAll0000000`, {
        method: 'POST',
        body: '{"players":1}',
      });
      expect(post404.status).toBe(404);
      expect(viaApp).toBe(0);
      expect((await fetch(`${base}/api/push/not-a-token`)).status).toBe(404);
      expect(
        (
          await fetch(`${base}/api/push/${TOKEN}`, {
            method: 'OPTIONS',
            headers: { origin: 'https://x.example', 'access-control-request-method': 'POST' },
          })
        ).status,
      ).toBe(204);
      expect(viaApp).toBe(2);
      expect(await checks()).toHaveLength(0);
    });

    it('says a chunked body that passes 16 KiB is too large (413), and stores nothing', async () => {
      const answer = await new Promise<{ status: number; body: string }>((resolve, reject) => {
        const req = request(
          `${base}/api/push/${TOKEN}`,
          { method: 'POST', headers: { 'transfer-encoding': 'chunked' } },
          (res) => {
            let body = '';
            res.on('data', (d) => (body += d));
            res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
          },
        );
        req.on('error', reject);
        req.write('{"pad":"');
        for (let i = 0; i < 8; i++) req.write('x'.repeat(PUSH_LIMITS.bodyBytes / 4));
        req.end('"}');
      });
      expect(answer.status).toBe(413);
      expect(JSON.parse(answer.body).detail).toBe(`The body must be at most ${PUSH_LIMITS.bodyBytes} bytes.`);
      expect(await checks()).toHaveLength(0);
    });

    it('answers 503 with Retry-After when the ingest queue is full', async () => {
      ingest = { ...h.ingest, record: () => Promise.reject(new IngestOverloadedError()) };
      const res = await fetch(`${base}/api/push/${TOKEN}`);
      expect(res.status).toBe(503);
      expect(res.headers.get('retry-after')).toBe('1');
      expect(res.headers.get('content-type')).toBe('application/problem+json');
      expect((await res.json()).type).toBe('https://warden.dev/problems/overloaded');
    });
  });
}
