// The dispatcher tests' harness: two test channel types posting to a real local HTTP receiver, a dispatcher on an
// injected clock, channels and deliveries written through the store, and a store that releases nothing (kill -9).
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { z } from 'zod';
import type { NewDelivery } from '../src/domain/notification.js';
import { createLogger } from '../src/logger.js';
import { defineChannel, type NotificationEvent } from '../src/notify/channels/channel.js';
import { postRequest } from '../src/notify/channels/http-send.js';
import { createDispatcher, type DISPATCH_DEFAULTS, type Dispatcher } from '../src/notify/dispatch/dispatcher.js';
import type { Store } from '../src/store/index.js';
import { NOW, ORG } from './contracts/store-fixtures.js';

export const testChannel = defineChannel({
  type: 'test-hook',
  label: 'Test hook',
  config: z.object({ url: z.string() }),
  secrets: [],
  targets: ['url'],
  maxInFlight: 1,
  send: (event, config, ctx) => postRequest({ url: config.url, headers: { 'webhook-id': event.id }, body: event }, ctx),
});
/** The same with several sends at once, like the webhook channel. */
export const wideChannel = defineChannel({ ...testChannel, type: 'wide-hook', maxInFlight: 4 });

type Handler = (req: IncomingMessage, res: ServerResponse, body: string) => void;
export interface Receiver {
  url: string;
  port: number;
  got: { id: string; body: NotificationEvent }[];
  handle: Handler;
  close(): Promise<void>;
}

const servers: Server[] = [];
export async function receiver(port = 0): Promise<Receiver> {
  const r: Receiver = {
    url: '',
    port: 0,
    got: [],
    handle: (_req, res) => res.writeHead(204).end(),
    close: async () => {},
  };
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      r.got.push({ id: String(req.headers['webhook-id']), body: JSON.parse(body) as NotificationEvent });
      r.handle(req, res, body);
    });
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  r.port = (server.address() as AddressInfo).port;
  r.url = `http://127.0.0.1:${r.port}/hook`;
  r.close = () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return r;
}

/** A port nothing listens on now (a receiver that is down). */
export async function freePort(): Promise<number> {
  const probe = await receiver();
  await probe.close();
  servers.pop();
  return probe.port;
}

const dispatchers: Dispatcher[] = [];
/** Stops the test's dispatchers and closes its receivers: each test file runs it after each test. */
export async function cleanUp(): Promise<void> {
  for (const d of dispatchers.splice(0)) await d.stop();
  for (const s of servers.splice(0)) {
    s.closeAllConnections();
    await new Promise((resolve) => s.close(resolve));
  }
}

const logger = createLogger('silent');

export function setup(store: Store, options: Partial<typeof DISPATCH_DEFAULTS> = {}, random: () => number = () => 0.5) {
  const clock = {
    t: NOW,
    now() {
      return this.t;
    },
  };
  const channels = { 'test-hook': testChannel, 'wide-hook': wideChannel };
  const dispatcher = createDispatcher({
    store,
    clock,
    logger,
    channels,
    random,
    options: { attemptTimeoutMs: 2000, stopGraceMs: 200, ...options },
  });
  dispatchers.push(dispatcher);
  return { clock, dispatcher };
}

export async function addChannel(store: Store, key: string, url: string, type = 'test-hook'): Promise<string> {
  const id = `nch_${key}`;
  await store.channels.insert(
    { id, organizationId: ORG.id, key, name: key, type, config: { url }, rules: {}, enabled: true, managedBy: 'api' },
    NOW,
  );
  return id;
}

let n = 0;
export function delivery(channelId: string, eventId: string, monitorId = 'mon_a'): NewDelivery {
  n += 1;
  const event = {
    id: eventId,
    kind: 'monitor.down',
    at: NOW,
    severity: 'critical',
    title: 'down',
    reason: null,
    organization: ORG,
    pages: [],
  };
  return {
    id: `dlv_${String(n).padStart(6, '0')}`,
    eventId,
    channelId,
    organizationId: ORG.id,
    monitorId,
    kind: 'monitor.down',
    event: JSON.stringify(event),
    nextAttemptAt: NOW,
  };
}

/** The store as a process killed with -9 sees it: nothing is released when it goes. */
export const killable = (store: Store): Store => {
  const deliveries = new Proxy(store.deliveries, {
    get: (target, key, receiver) => (key === 'releaseClaims' ? async () => 0 : Reflect.get(target, key, receiver)),
  });
  return new Proxy(store, {
    get: (target, key, receiver) => (key === 'deliveries' ? deliveries : Reflect.get(target, key, receiver)),
  });
};

export const waitFor = async (done: () => boolean | Promise<boolean>) => {
  for (let i = 0; i < 300 && !(await done()); i++) await new Promise((resolve) => setTimeout(resolve, 10));
};

export const statusOf = async (store: Store, channelId: string) =>
  (await store.deliveries.listByChannel(channelId, 10)).map((d) => d.status);
