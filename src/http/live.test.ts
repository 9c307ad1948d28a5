// The live stream over a real node server: messages, access, custom domains, refusals, pings, slow clients, shutdown.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { type Harness, startHarness } from '../../test/app-harness.js';
import { dialects } from '../../test/store-dialects.js';
import { createLogger } from '../logger.js';
import type { LiveMessage } from '../services/live/messages.js';
import { createPageAccess } from '../services/pages/page-access.js';
import { attachLiveStream, type LiveStream, subscriberFor } from './live.js';
import { createRequestListener } from './pre-router.js';

const CONFIG = `
organization: { name: Acme }
monitors:
  - { key: lobby, name: Lobby, type: minecraft-java, config: { host: 127.0.0.1, port: 25565 } }
  - { key: web, name: Web, type: http, retries: 0, config: { url: "http://127.0.0.1:1/" } }
pages:
  - slug: acme
    title: Acme Network
    customDomain: status.acme.test
    components:
      - { name: Lobby, monitor: lobby }
      - { name: Website, monitor: web }
  - slug: secret
    title: Secret
    password: hunter2-long
    components: [{ name: Web, monitor: web }]
`;

interface Client {
  ws: WebSocket;
  messages: LiveMessage[];
  /** Resolves with the first message (from the start) of this type that satisfies the test. */
  next<T extends LiveMessage['type']>(
    type: T,
    test?: (m: Extract<LiveMessage, { type: T }>) => boolean,
  ): Promise<Extract<LiveMessage, { type: T }>>;
  closed: Promise<{ code: number; reason: string }>;
}

let h: Harness;
let server: Server;
let live: LiveStream;
let base: string;

function connect(path: string, options: WebSocket.ClientOptions = {}): Promise<Client> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(base + path, options);
    const messages: LiveMessage[] = [];
    const waiters: (() => void)[] = [];
    ws.on('message', (data) => {
      messages.push(JSON.parse(String(data)));
      for (const wake of waiters.splice(0)) wake();
    });
    const closed = new Promise<{ code: number; reason: string }>((done) =>
      ws.on('close', (code, reason) => done({ code, reason: String(reason) })),
    );
    ws.once('unexpected-response', (_request, response) =>
      reject(
        Object.assign(new Error(`HTTP ${response.statusCode}`), {
          status: response.statusCode,
          headers: response.headers,
        }),
      ),
    );
    ws.once('error', reject);
    ws.once('open', () =>
      resolve({
        ws,
        messages,
        closed,
        next(type, test = () => true) {
          return new Promise((found, fail) => {
            const timer = setTimeout(
              () => fail(new Error(`no ${type} message; got ${messages.map((m) => m.type).join(', ')}`)),
              3000,
            );
            const look = () => {
              const hit = messages.find((m) => m.type === type && test(m as never));
              if (hit) {
                clearTimeout(timer);
                found(hit as never);
              } else waiters.push(look);
            };
            look();
          });
        },
      }),
    );
  });
}

const refusal = (path: string, options: WebSocket.ClientOptions = {}) =>
  connect(path, options).then(
    (client) => {
      client.ws.close();
      return 101;
    },
    (error: { status?: number }) => error.status,
  );

for (const dialect of dialects) {
  describe.skipIf(!dialect.available)(`the live stream on ${dialect.name}`, () => {
    beforeAll(async () => {
      h = await startHarness(dialect, CONFIG);
      server = createServer(createRequestListener(h.app, { fastPaths: h.fastPaths, logger: createLogger('silent') }));
      live = attachLiveStream(server, {
        pages: h.pages,
        pageAccess: createPageAccess(),
        clock: h.clock,
        logger: createLogger('silent'),
        limits: { pingIntervalMs: 150 },
      });
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      base = `ws://127.0.0.1:${(server.address() as AddressInfo).port}`;
    });

    afterAll(async () => {
      await live.close();
      await new Promise((resolve) => server.close(resolve));
      await h.close();
    });

    describe('WS /s/{slug}/live', () => {
      it('sends the snapshot first, then component, players and overall changes, with `at` in epoch ms', async () => {
        const client = await connect('/s/acme/live');
        const first = client.messages[0] ?? (await client.next('snapshot'));
        expect(first).toMatchObject({ type: 'snapshot', snapshot: { page: { slug: 'acme' } } });
        expect(first.at).toBe(h.clock.now());

        h.clock.advance(1000);
        await h.ingest.record({
          monitorId: h.monitors.lobby!.id,
          ok: true,
          latencyMs: 30,
          data: { players: 7, maxPlayers: 50 },
          source: 'edge',
        });
        const update = await client.next('monitor.update', (m) => m.component.name === 'Lobby');
        expect(update).toMatchObject({
          at: h.clock.now(),
          previousState: 'unknown',
          component: { state: 'operational', live: { players: 7, latencyMs: 30 } },
        });
        expect(await client.next('totals')).toMatchObject({ players: 7, maxPlayers: 50 });

        h.clock.advance(1000);
        await h.ingest.record({
          monitorId: h.monitors.web!.id,
          ok: false,
          error: 'connection refused',
          source: 'edge',
        });
        const overall = await client.next('overall', (m) => m.state === 'down');
        expect(overall).toMatchObject({ label: 'Major outage', at: h.clock.now() });
        client.ws.close();
      });

      it('serves /live on the page’s custom domain', async () => {
        const client = await connect('/live', { headers: { host: 'status.acme.test' } });
        expect(await client.next('snapshot')).toMatchObject({ snapshot: { page: { slug: 'acme' } } });
        client.ws.close();
      });

      it('refuses unknown pages and paths with 404', async () => {
        expect(await refusal('/s/nope/live')).toBe(404);
        expect(await refusal('/s/acme/other')).toBe(404);
        expect(await refusal('/socket')).toBe(404);
      });

      it('asks for the password of a protected page: Bearer header or the password form’s cookie', async () => {
        expect(await refusal('/s/secret/live')).toBe(401);
        expect(await refusal('/s/secret/live', { headers: { authorization: 'Bearer wrong' } })).toBe(401);
        const withHeader = await connect('/s/secret/live', { headers: { authorization: 'Bearer hunter2-long' } });
        expect(await withHeader.next('snapshot')).toMatchObject({ snapshot: { page: { slug: 'secret' } } });
        withHeader.ws.close();
        const login = await h.request('/s/secret/login', {
          method: 'POST',
          body: new URLSearchParams({ password: 'hunter2-long' }),
        });
        const cookie = login.headers.get('set-cookie')!.split(';')[0]!;
        const withCookie = await connect('/s/secret/live', { headers: { cookie } });
        expect(await withCookie.next('snapshot')).toBeTruthy();
        withCookie.ws.close();
      });

      it('drops a client that stops answering pings, and keeps one that answers', async () => {
        const dead = await connect('/s/acme/live', { autoPong: false });
        const alive = await connect('/s/acme/live');
        const { code } = await dead.closed;
        expect(code).toBe(1006);
        expect(alive.ws.readyState).toBe(WebSocket.OPEN);
        alive.ws.close();
      });

      it('ignores what clients send, and closes on an oversized frame', async () => {
        const client = await connect('/s/acme/live');
        client.ws.send('hello');
        client.ws.send('x'.repeat(4096));
        expect((await client.closed).code).toBe(1009);
      });
    });

    describe('limits and shutdown', () => {
      it('refuses streams past the connection cap with 503, and closes open ones with 1001 on close', async () => {
        const other = createServer();
        const stream = attachLiveStream(other, {
          pages: h.pages,
          pageAccess: createPageAccess(),
          clock: h.clock,
          logger: createLogger('silent'),
          security: { liveConnectionsMax: 1 },
        });
        await new Promise<void>((resolve) => other.listen(0, '127.0.0.1', resolve));
        const previous = base;
        base = `ws://127.0.0.1:${(other.address() as AddressInfo).port}`;
        try {
          const first = await connect('/s/acme/live');
          expect(await refusal('/s/acme/live')).toBe(503);
          expect(stream.connections()).toBe(1);
          await stream.close();
          expect(await first.closed).toEqual({ code: 1001, reason: 'server shutting down' });
          expect(stream.connections()).toBe(0);
        } finally {
          base = previous;
          await new Promise((resolve) => other.close(resolve));
        }
      });
    });
  });
}

describe('a slow client', () => {
  it('is cut once its unsent bytes pass the cap, without a close frame queued behind them', () => {
    const calls: string[] = [];
    const ws = {
      readyState: WebSocket.OPEN,
      bufferedAmount: 0,
      send: () => calls.push('send'),
      close: () => calls.push('close'),
      terminate: () => calls.push('terminate'),
    };
    const subscriber = subscriberFor(ws as never, 1000, createLogger('silent'));
    subscriber.send(Buffer.alloc(5000));
    ws.bufferedAmount = 5000;
    subscriber.send(Buffer.from('{}'));
    expect(calls).toEqual(['send', 'terminate']);
  });
});
