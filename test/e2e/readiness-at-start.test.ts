// A server between listening and applying its configuration: every route but /healthz and /readyz answers 503 with
// Retry-After and no-store (no CDN keeps a page "not found" across a restart), /readyz says not ready; once the
// configuration is applied everything is served as usual. The window is held open by a store whose calls wait, once
// migrated, until the test lets them go (test/fakes/held-store.ts): a database slow to answer the configuration's apply.
import { writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { readSettings } from '../../src/config/settings.js';
import { generateSecret } from '../../src/domain/tokens.js';
import { createLogger } from '../../src/logger.js';
import { startWarden, type Warden } from '../../src/main.js';
import { openStore } from '../../src/store/open-store.js';
import { type HeldStore, holdAfterMigrating } from '../fakes/held-store.js';
import { dialects, type OpenedStore } from '../store-dialects.js';

const PUSH_TOKEN = generateSecret('pushToken');
const YAML = `
organization: { key: acme, name: Acme }
monitors:
  - { key: backup, name: Nightly backup, type: heartbeat, pushToken: "${PUSH_TOKEN}", config: { graceSec: 90000 } }
pages:
  - { slug: acme, title: Acme, components: [{ name: Backups, monitor: backup }] }
`;

/** What each route answers while the server starts, and (all but the probes) once it is ready. */
const ROUTES: { method: string; path: string; body?: string; ready: number }[] = [
  { method: 'GET', path: '/s/acme/status.json', ready: 200 },
  { method: 'GET', path: '/api/v1/status/acme', ready: 200 },
  { method: 'GET', path: '/s/acme', ready: 200 },
  { method: 'HEAD', path: '/s/acme/status.json', ready: 200 },
  { method: 'OPTIONS', path: '/api/v1/status/acme', ready: 204 },
  { method: 'GET', path: `/api/push/${PUSH_TOKEN}?status=up`, ready: 200 },
  { method: 'POST', path: `/api/push/${PUSH_TOKEN}`, body: '{"status":"up"}', ready: 200 },
  { method: 'POST', path: '/api/relay/results', body: '{"results":[]}', ready: 401 },
  { method: 'POST', path: '/mcp', body: '{"jsonrpc":"2.0","id":1,"method":"ping"}', ready: 200 },
  { method: 'GET', path: '/api/v1/monitors', ready: 401 },
  { method: 'GET', path: '/nothing-here', ready: 404 },
];

for (const dialect of dialects) {
  describe.skipIf(!dialect.available)(`a server starting on ${dialect.name}`, () => {
    let opened: OpenedStore | undefined;
    let running: Warden | undefined;
    let release: (() => Promise<void>) | undefined;
    afterEach(async () => {
      await release?.();
      await running?.close();
      await opened?.cleanup();
      running = undefined;
      opened = undefined;
      release = undefined;
    });

    it('answers 503, Retry-After and no-store on every route but /healthz and /readyz until its configuration is applied', async () => {
      opened = await dialect.open();
      const file = join(
        opened.env.WARDEN_DATA_DIR ?? process.env.TMPDIR ?? '/tmp',
        `warden-starting-${process.pid}.yaml`,
      );
      writeFileSync(file, YAML);
      let held: HeldStore | undefined;
      const port = await freePort();
      const base = `http://127.0.0.1:${port}`;
      const settings = readSettings({
        ...opened.env,
        PORT: String(port),
        HOST: '127.0.0.1',
        LOG_LEVEL: 'silent',
        WARDEN_CONFIG: file,
      });
      const starting = startWarden({
        settings,
        logger: createLogger('silent'),
        openStore: async (options) => {
          held = holdAfterMigrating(await openStore(options));
          return held.store;
        },
      });
      release = async () => {
        held?.release();
        await starting.catch(() => {});
      };
      await until(async () => (await fetch(`${base}/healthz`).catch(() => null))?.status === 200);

      for (const route of ROUTES) {
        const res = await send(base, route);
        const what = `${route.method} ${route.path.replace(PUSH_TOKEN, 'TOKEN')}`;
        expect(res.status, what).toBe(503);
        expect(res.headers.get('retry-after'), what).toBe('2');
        expect(res.headers.get('cache-control'), what).toBe('no-store');
        expect(res.headers.get('content-type'), what).toBe('application/problem+json');
        // A widget on another site reads the 503 and its Retry-After rather than a failed fetch.
        expect(res.headers.get('access-control-allow-origin'), what).toBe('*');
        const path = route.path.split('?')[0];
        if (route.method === 'HEAD') expect(await res.text(), what).toBe('');
        else
          expect(await res.json(), what).toEqual({
            type: 'https://warden.dev/problems/starting',
            title: 'Starting',
            status: 503,
            detail: 'The server is starting: try again in a moment.',
            instance: path,
          });
      }
      const live = await upgrade(`ws://127.0.0.1:${port}/s/acme/live`);
      expect(live).toMatchObject({ status: 503, retryAfter: '2', cacheControl: 'no-store' });
      expect((await fetch(`${base}/healthz`)).status).toBe(200);
      const readyz = await fetch(`${base}/readyz`);
      expect(readyz.status).toBe(503);
      expect(readyz.headers.get('cache-control')).toBe('no-store');
      expect(readyz.headers.get('retry-after')).toBe('2');
      expect(((await readyz.json()) as { detail: string }).detail).toBe('The server is starting or stopping.');

      await held?.reached();
      held?.release();
      running = await starting;
      release = undefined;

      for (const route of ROUTES) {
        const res = await send(base, route);
        expect(res.status, `${route.method} ${route.path.replace(PUSH_TOKEN, 'TOKEN')} once ready`).toBe(route.ready);
        await res.arrayBuffer();
      }
      const page = await fetch(`${base}/s/acme/status.json`);
      expect(page.headers.get('cache-control')).toMatch(/^public, /);
      expect((await fetch(`${base}/readyz`)).status).toBe(200);
      expect(await upgrade(`ws://127.0.0.1:${port}/s/acme/live`)).toEqual({ status: 101 });
    });
  });
}

function send(base: string, route: { method: string; path: string; body?: string }): Promise<Response> {
  return fetch(base + route.path, {
    method: route.method,
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      origin: 'https://elsewhere.example',
      'access-control-request-method': 'GET',
    },
    ...(route.body === undefined ? {} : { body: route.body }),
  });
}

/** A WebSocket handshake's outcome: 101 once open, or the refusal's status and headers. */
function upgrade(
  url: string,
): Promise<{ status: number; retryAfter?: string | undefined; cacheControl?: string | undefined }> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(url);
    ws.once('open', () => {
      ws.close();
      resolve({ status: 101 });
    });
    ws.once('unexpected-response', (_req, res) => {
      resolve({
        status: res.statusCode ?? 0,
        retryAfter: res.headers['retry-after'],
        cacheControl: res.headers['cache-control'],
      });
      res.resume();
      ws.terminate();
    });
    ws.once('error', reject);
  });
}

async function until(condition: () => Promise<boolean>, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error('the server did not start listening');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}
