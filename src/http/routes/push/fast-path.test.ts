import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { getRequestListener } from '@hono/node-server';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type Harness, startHarness } from '../../../../test/app-harness.js';
import { BAD_PUSH_BODIES, BAD_PUSH_QUERIES } from '../../../../test/fakes/bad-pushes.js';
import { dialects } from '../../../../test/store-dialects.js';
import { createLogger } from '../../../logger.js';
import { type Ingest, IngestOverloadedError } from '../../../runner/ingest.js';
import { PUSH_LIMITS } from '../../../services/push/limits.js';
import { createPushTokenCache } from '../../../services/push/token-cache.js';
import { listChecks } from '../../../store/checks.js';
import type { Monitor } from '../../../store/monitors.js';
import { createPushFastPath } from './fast-path.js';

const TOKEN = 'wdp_fastPathHeartbeatToken0123';
const CONFIG = `
organization: { key: acme, name: Acme }
monitors:
  - { key: lobby, name: Lobby, type: heartbeat, pushToken: ${TOKEN} }
`;

const sqlite = dialects[0] as (typeof dialects)[number];

describe('the push fast path (node:http, before the router)', () => {
  let h: Harness;
  let server: Server;
  let base: string;
  let lobby: Monitor;
  let viaApp: number;
  let ingest: Ingest;

  beforeEach(async () => {
    h = await startHarness(sqlite, CONFIG);
    lobby = h.monitors.lobby as Monitor;
    ingest = h.ingest;
    const toApp = getRequestListener(h.app.fetch);
    const fast = createPushFastPath({
      ingest: { ...h.ingest, record: (input) => ingest.record(input) },
      clock: h.clock,
      logger: createLogger('silent'),
      tokens: createPushTokenCache({ db: h.opened.store.db, bus: h.bus, clock: h.clock }),
    });
    viaApp = 0;
    server = createServer((req, res) => {
      const counted = (q: typeof req, s: typeof res) => {
        viaApp++;
        return toApp(q, s);
      };
      if (!fast(req, res, counted)) counted(req, res);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterEach(async () => {
    await new Promise((resolve) => server.close(resolve));
    await h.close();
  });

  const checks = () => listChecks(h.opened.store.db, lobby.id, 0, h.clock.now() + 1, 100);

  it('answers a good GET and POST itself, with the body and headers the app would send', async () => {
    const get = await fetch(`${base}/api/push/${TOKEN}?status=down&msg=crashed&latency=7`, { headers: { 'x-request-id': 'cron-42' } });
    expect(get.status).toBe(200);
    expect(get.headers.get('content-type')).toBe('application/json');
    expect(get.headers.get('cache-control')).toBe('no-store');
    expect(get.headers.get('access-control-allow-origin')).toBe('*');
    expect(get.headers.get('x-request-id')).toBe('cron-42');
    const body = await get.json();
    expect(body).toEqual({ ok: true, monitor: lobby.id, state: 'down', checkedAt: expect.any(Number) });

    const post = await fetch(`${base}/api/push/${TOKEN}`, { method: 'POST', body: JSON.stringify({ players: 5, maxPlayers: 10, tps: 20, seed: 'x' }) });
    expect(post.status).toBe(200);
    expect(viaApp).toBe(0);
    const [latest, first] = await checks();
    expect(first).toMatchObject({ ok: false, error: 'crashed', latencyMs: 7 });
    expect(latest).toMatchObject({ ok: true, data: { players: 5, maxPlayers: 10, tps: 20, seed: 'x' } });

    // The app's own answer to the same ping has the same shape and headers.
    const fromApp = await h.request(`/api/push/${TOKEN}`);
    expect(Object.keys(await fromApp.json())).toEqual(Object.keys(body));
    for (const name of ['content-type', 'cache-control', 'access-control-allow-origin']) expect(fromApp.headers.get(name)).toBe(get.headers.get(name));
  });

  it('leaves bad input, unknown tokens and preflights to the app, which answers them as usual', async () => {
    for (const [query, path] of BAD_PUSH_QUERIES) {
      const res = await fetch(`${base}/api/push/${TOKEN}?${query}`);
      expect(res.status, query).toBe(400);
      expect((await res.json()).errors.map((e: { path: string }) => e.path)).toContain(path);
    }
    for (const [what, text, path] of BAD_PUSH_BODIES) {
      const res = await fetch(`${base}/api/push/${TOKEN}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: text });
      expect(res.status, what).toBe(400);
      expect((await res.json()).errors.map((e: { path: string }) => e.path)).toContain(path);
    }
    expect((await fetch(`${base}/api/push/wdp_notAKnownTokenAtAll0000000`)).status).toBe(404);
    const post404 = await fetch(`${base}/api/push/wdp_notAKnownTokenAtAll0000000`, { method: 'POST', body: '{"players":1}' });
    expect(post404.status).toBe(404);
    expect((await fetch(`${base}/api/push/${TOKEN}`, { method: 'OPTIONS', headers: { origin: 'https://x.example', 'access-control-request-method': 'POST' } })).status).toBe(204);
    expect(viaApp).toBe(BAD_PUSH_QUERIES.length + BAD_PUSH_BODIES.length + 3);
    expect(await checks()).toHaveLength(0);
  });

  it('hands a chunked body that passes 16 KiB to the app, which says it is too large', async () => {
    const answer = await new Promise<{ status: number; body: string }>((resolve, reject) => {
      const req = request(`${base}/api/push/${TOKEN}`, { method: 'POST', headers: { 'transfer-encoding': 'chunked' } }, (res) => {
        let body = '';
        res.on('data', (d) => (body += d));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
      });
      req.on('error', reject);
      req.write('{"pad":"');
      for (let i = 0; i < 8; i++) req.write('x'.repeat(PUSH_LIMITS.bodyBytes / 4));
      req.end('"}');
    });
    expect(answer.status).toBe(400);
    expect(JSON.parse(answer.body).errors[0].message).toBe(`the body is larger than ${PUSH_LIMITS.bodyBytes} bytes`);
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
