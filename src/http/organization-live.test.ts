// The dashboard's live stream (WS /api/v1/live) over a real node server: one organization's monitors only, its authentication and Origin check.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { signedInUser } from '../../test/accounts.js';
import { type Harness, startHarness } from '../../test/app-harness.js';
import { seed } from '../../test/seed.js';
import { dialects } from '../../test/store-dialects.js';
import { createLogger } from '../logger.js';
import { createApiKey } from '../services/api-keys/create.js';
import type { OrganizationLiveMessage } from '../services/live/organization-messages.js';
import { createPageAccess } from '../services/pages/page-access.js';
import { attachLiveStream, type LiveStream } from './live.js';
import { createRequestListener } from './pre-router.js';

const ALPHA = `
organization: { key: alpha, name: Alpha }
monitors:
  - { key: lobby, name: Lobby, type: tcp, retries: 0, config: { host: 127.0.0.1, port: 25565 } }
  - { key: web, name: Web, type: http, config: { url: "https://alpha.example.com" } }
`;
const BETA = `
organization: { key: beta, name: Beta }
monitors:
  - { key: hub, name: Hub, type: tcp, retries: 0, config: { host: 127.0.0.1, port: 25566 } }
`;

interface Client {
  ws: WebSocket;
  messages: OrganizationLiveMessage[];
  next<T extends OrganizationLiveMessage['type']>(
    type: T,
    test?: (m: Extract<OrganizationLiveMessage, { type: T }>) => boolean,
  ): Promise<Extract<OrganizationLiveMessage, { type: T }>>;
}

let h: Harness;
let server: Server;
let live: LiveStream;
let origin: string;
let alphaId: string;
let betaId: string;
const keys = { alpha: '', beta: '' };

function connect(query = '', headers: Record<string, string> = {}): Promise<Client> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(`${origin.replace('http', 'ws')}/api/v1/live${query}`, { headers });
    const messages: OrganizationLiveMessage[] = [];
    const waiters: (() => void)[] = [];
    ws.on('message', (data) => {
      messages.push(JSON.parse(String(data)));
      for (const wake of waiters.splice(0)) wake();
    });
    ws.once('unexpected-response', (_request, response) =>
      reject(Object.assign(new Error(`HTTP ${response.statusCode}`), { status: response.statusCode })),
    );
    ws.once('error', reject);
    ws.once('open', () =>
      resolve({
        ws,
        messages,
        next(type, test = () => true) {
          return new Promise((found, fail) => {
            const timer = setTimeout(
              () => fail(new Error(`no ${type} message; got ${JSON.stringify(messages)}`)),
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

const status = (query: string, headers: Record<string, string> = {}) =>
  connect(query, headers).then(
    (client) => {
      client.ws.close();
      return 101;
    },
    (error: { status?: number }) => error.status,
  );

for (const dialect of dialects) {
  describe.skipIf(!dialect.available)(`the organization live stream on ${dialect.name}`, () => {
    beforeAll(async () => {
      h = await startHarness(dialect, ALPHA);
      alphaId = h.organizationId;
      betaId = (await seed(h.opened.store, BETA, h.clock.now())).report.organization.id;
      keys.alpha = (
        await createApiKey({ ...h.context, organizationId: alphaId }, { name: 'dash', scope: 'read' })
      ).secret;
      keys.beta = (
        await createApiKey({ ...h.context, organizationId: betaId }, { name: 'dash', scope: 'read' })
      ).secret;
      server = createServer(createRequestListener(h.app, { fastPaths: h.fastPaths, logger: createLogger('silent') }));
      live = attachLiveStream(server, {
        pages: h.pages,
        pageAccess: createPageAccess(),
        clock: h.clock,
        logger: createLogger('silent'),
        organizations: h.context,
        organizationLimits: { flushMs: 20 },
      });
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    });

    afterAll(async () => {
      await live?.close();
      await new Promise((resolve) => server?.close(resolve));
      await h?.close();
    });

    it("sends a snapshot of the organization's monitors, then a monitor going down to that organization only", async () => {
      const a = await connect('', { authorization: `Bearer ${keys.alpha}` });
      const b = await connect('', { authorization: `Bearer ${keys.beta}` });
      const snapshot = await a.next('snapshot');
      expect(snapshot.monitors.map((m) => m.key)).toEqual(['lobby', 'web']);
      expect(snapshot.monitors[0]).toMatchObject({ state: 'unknown', checkedAt: null, latencyMs: null });
      expect((await b.next('snapshot')).monitors.map((m) => m.key)).toEqual(['hub']);

      h.clock.advance(1000);
      await h.ingest.record({
        monitorId: h.monitors.lobby!.id,
        ok: false,
        error: 'connection refused',
        source: 'edge',
      });
      const down = await a.next('monitor', (m) => m.monitor.key === 'lobby');
      expect(down).toMatchObject({
        previousState: 'unknown',
        monitor: { state: 'down', message: 'connection refused', checkedAt: h.clock.now(), ok: false },
      });

      // B hears of its own monitor, and never of A's.
      const hub = (await h.opened.store.monitors.findByKey(betaId, 'hub'))!;
      await h.ingest.record({ monitorId: hub.id, ok: true, latencyMs: 12, source: 'edge' });
      expect(await b.next('monitor')).toMatchObject({
        monitor: { key: 'hub', state: 'up', latencyMs: 12 },
        previousState: 'unknown',
      });
      expect(
        b.messages.filter((m) => m.type === 'monitor').map((m) => (m as { monitor: { key: string } }).monitor.key),
      ).toEqual(['hub']);
      expect(
        a.messages.filter((m) => m.type === 'monitor').map((m) => (m as { monitor: { key: string } }).monitor.key),
      ).toEqual(['lobby']);

      // A latency that moves without a state change is told too.
      await h.ingest.record({ monitorId: h.monitors.lobby!.id, ok: true, latencyMs: 33, source: 'edge' });
      expect(await a.next('monitor', (m) => m.monitor.latencyMs === 33)).toMatchObject({
        previousState: 'down',
        monitor: { state: 'up' },
      });
      a.ws.close();
      b.ws.close();
    });

    it('follows the organization’s monitor events while someone listens, and lets go when the last leaves', async () => {
      const follows: string[] = [];
      const released: string[] = [];
      const follow = h.bus.follow;
      h.bus.follow = (organizationId) => {
        follows.push(organizationId);
        return { ready: async () => true, release: () => void released.push(organizationId) };
      };
      try {
        // The streams of the tests before have left.
        await expect.poll(() => live.organizationHub?.size(), { interval: 10, timeout: 2000 }).toBe(0);
        const [a, b] = [
          await connect('', { authorization: `Bearer ${keys.alpha}` }),
          await connect('', { authorization: `Bearer ${keys.alpha}` }),
        ];
        await a.next('snapshot');
        await b.next('snapshot');
        expect(follows).toEqual([alphaId]);
        a.ws.close();
        await new Promise((resolve) => setTimeout(resolve, 100));
        expect(released).toEqual([]);
        b.ws.close();
        await expect.poll(() => released, { interval: 10, timeout: 2000 }).toEqual([alphaId]);
      } finally {
        h.bus.follow = follow;
      }
    });

    it('sends a new snapshot when monitors are created, changed or deleted', async () => {
      const a = await connect('', { authorization: `Bearer ${keys.alpha}` });
      await a.next('snapshot');
      h.bus.publish({ type: 'monitors.changed', at: h.clock.now(), organizationId: alphaId });
      await a.next('snapshot', (m) => m !== a.messages[0]);
      expect(a.messages.filter((m) => m.type === 'snapshot')).toHaveLength(2);
      a.ws.close();
    });

    it('takes a signed-in browser from Warden’s own pages, in the organization it names', async () => {
      const user = await signedInUser(h.context, [
        { organizationId: alphaId, role: 'viewer' },
        { organizationId: betaId, role: 'editor' },
      ]);
      const own = { cookie: user.cookie, origin };
      const first = await connect('', own);
      expect((await first.next('snapshot')).monitors.map((m) => m.key)).toEqual(['lobby', 'web']);
      const beta = await connect('?organization=beta', own);
      expect((await beta.next('snapshot')).monitors.map((m) => m.key)).toEqual(['hub']);
      const byId = await connect(`?organization=${betaId}`, own);
      expect((await byId.next('snapshot')).monitors.map((m) => m.key)).toEqual(['hub']);
      for (const client of [first, beta, byId]) client.ws.close();
      const stranger = await signedInUser(h.context, [{ organizationId: betaId, role: 'viewer' }]);
      expect(await status('?organization=alpha', { cookie: stranger.cookie, origin })).toBe(403);
    });

    it('refuses a cookie sent from another site, or without an Origin (cross-site WebSocket hijacking)', async () => {
      const user = await signedInUser(h.context, [{ organizationId: alphaId, role: 'owner' }]);
      expect(await status('', { cookie: user.cookie, origin: 'https://evil.example' })).toBe(403);
      expect(await status('', { cookie: user.cookie })).toBe(403);
    });

    it('refuses a handshake without credentials, with an unknown key or an expired session', async () => {
      expect(await status('')).toBe(401);
      expect(await status('', { origin })).toBe(401);
      expect(await status('', { authorization: 'Bearer wdn_not_a_real_key_at_all_000000' })).toBe(401);
      expect(await status('', { cookie: 'warden_session=wds_forged', origin })).toBe(401);
    });
  });
}
