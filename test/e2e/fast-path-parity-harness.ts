// What the pre-router parity tests share (fast-path-parity-pages.test.ts, fast-path-parity-push-probes.test.ts): one
// app behind two listeners, the fast paths on and off, and `same`, which sends a request to both and holds their
// answers equal.
import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, expect } from 'vitest';
import type { App } from '../../src/http/env.js';
import { createRequestListener } from '../../src/http/pre-router.js';
import { createLogger } from '../../src/logger.js';
import { type Harness, startHarness } from '../app-harness.js';
import type { dialects } from '../store-dialects.js';

export const TOKEN = 'wdp_parityHeartbeatToken012345';
export const UNKNOWN = 'wdp_noMonitorHoldsThisToken0000';
export const YAML = `
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

export interface Ask {
  method?: string;
  path: string;
  headers?: Record<string, string>;
  body?: string;
}
export interface Answer {
  status: number;
  headers: Record<string, string>;
  body: Buffer;
}

/** Framing and identity headers that differ by design: the id is per request, the date per second. */
const UNCOMPARED = new Set(['x-request-id', 'date']);

export function send(base: string, ask: Ask): Promise<Answer> {
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

export async function listen(server: Server): Promise<string> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

export const FORMS = [
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

/**
 * Called inside a dialect's describe: a harness on that dialect behind both listeners (every form of the warm page read
 * once through the app), closed after the file.
 */
export function parityListeners(dialect: (typeof dialects)[number]) {
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

  return {
    get h() {
      return h;
    },
    get fast() {
      return fast;
    },
    get slow() {
      return slow;
    },
    get appCalls() {
      return appCalls;
    },
    same,
  };
}
