// The dispatcher against a real local HTTP receiver, on every dialect: sent once, Retry-After honoured (pausing the whole
// channel), dead with the answer, a receiver down then up gets everything in order, a crash mid-send re-sends the same
// event, channels independent, several sends at once per channel up to its maxInFlight with each monitor's in order.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, expect, it } from 'vitest';
import { z } from 'zod';
import { addOrganization, describeStore, NOW, ORG, OTHER_ORG } from '../../../test/contracts/store-fixtures.js';
import type { NewDelivery } from '../../domain/notification.js';
import { createLogger } from '../../logger.js';
import type { Store } from '../../store/index.js';
import { defineChannel, type NotificationEvent } from '../channels/channel.js';
import { postRequest } from '../channels/http-send.js';
import { createDispatcher, type DISPATCH_DEFAULTS, type Dispatcher } from './dispatcher.js';

const testChannel = defineChannel({
  type: 'test-hook',
  label: 'Test hook',
  config: z.object({ url: z.string() }),
  secrets: [],
  targets: ['url'],
  maxInFlight: 1,
  send: (event, config, ctx) => postRequest({ url: config.url, headers: { 'webhook-id': event.id }, body: event }, ctx),
});
/** The same with several sends at once, like the webhook channel. */
const wideChannel = defineChannel({ ...testChannel, type: 'wide-hook', maxInFlight: 4 });

type Handler = (req: IncomingMessage, res: ServerResponse, body: string) => void;
interface Receiver {
  url: string;
  port: number;
  got: { id: string; body: NotificationEvent }[];
  handle: Handler;
  close(): Promise<void>;
}

const servers: Server[] = [];
async function receiver(port = 0): Promise<Receiver> {
  const r: Receiver = { url: '', port: 0, got: [], handle: (_req, res) => res.writeHead(204).end(), close: async () => {} };
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

const dispatchers: Dispatcher[] = [];
afterEach(async () => {
  for (const d of dispatchers.splice(0)) await d.stop();
  for (const s of servers.splice(0)) {
    s.closeAllConnections();
    await new Promise((resolve) => s.close(resolve));
  }
});

const logger = createLogger('silent');

function setup(store: Store, options: Partial<typeof DISPATCH_DEFAULTS> = {}, random: () => number = () => 0.5) {
  const clock = { t: NOW, now() {
    return this.t;
  } };
  const channels = { 'test-hook': testChannel, 'wide-hook': wideChannel };
  const dispatcher = createDispatcher({ store, clock, logger, channels, random, options: { attemptTimeoutMs: 2000, stopGraceMs: 200, ...options } });
  dispatchers.push(dispatcher);
  return { clock, dispatcher };
}

async function addChannel(store: Store, key: string, url: string, type = 'test-hook'): Promise<string> {
  const id = `nch_${key}`;
  await store.channels.insert({ id, organizationId: ORG.id, key, name: key, type, config: { url }, rules: {}, enabled: true, managedBy: 'api' }, NOW);
  return id;
}

let n = 0;
function delivery(channelId: string, eventId: string, monitorId = 'mon_a'): NewDelivery {
  n += 1;
  const event = { id: eventId, kind: 'monitor.down', at: NOW, severity: 'critical', title: 'down', reason: null, organization: ORG, pages: [] };
  return { id: `dlv_${String(n).padStart(6, '0')}`, eventId, channelId, organizationId: ORG.id, monitorId, kind: 'monitor.down', event: JSON.stringify(event), nextAttemptAt: NOW };
}

/** The store as a process killed with -9 sees it: nothing is released when it goes. */
const killable = (store: Store): Store => {
  const deliveries = new Proxy(store.deliveries, {
    get: (target, key, receiver) => (key === 'releaseClaims' ? async () => 0 : Reflect.get(target, key, receiver)),
  });
  return new Proxy(store, { get: (target, key, receiver) => (key === 'deliveries' ? deliveries : Reflect.get(target, key, receiver)) });
};

const waitFor = async (done: () => boolean | Promise<boolean>) => {
  for (let i = 0; i < 300 && !(await done()); i++) await new Promise((resolve) => setTimeout(resolve, 10));
};

const statusOf = async (store: Store, channelId: string) => (await store.deliveries.listByChannel(channelId, 10)).map((d) => d.status);

describeStore('notification dispatcher', (store) => {
  it('sends a delivery once', async () => {
    await addOrganization(store());
    const r = await receiver();
    const ch = await addChannel(store(), 'a', r.url);
    await store().deliveries.enqueue([delivery(ch, 'evt_1')], NOW);
    const { dispatcher } = setup(store());
    await dispatcher.tick();
    await dispatcher.tick();
    expect(r.got.map((g) => g.id)).toEqual(['evt_1']);
    expect(r.got[0]?.body.id).toBe('evt_1');
    expect(await statusOf(store(), ch)).toEqual(['sent']);
  });

  it('honours 429 Retry-After: nothing before 3 s, then sent', async () => {
    await addOrganization(store());
    const r = await receiver();
    let first = true;
    r.handle = (_req, res) => {
      if (first) res.writeHead(429, { 'retry-after': '3' }).end('slow down');
      else res.writeHead(200).end('ok');
      first = false;
    };
    const ch = await addChannel(store(), 'a', r.url);
    await store().deliveries.enqueue([delivery(ch, 'evt_1')], NOW);
    const { clock, dispatcher } = setup(store());
    await dispatcher.tick();
    expect(r.got).toHaveLength(1);
    clock.t = NOW + 2999;
    await dispatcher.tick();
    expect(r.got).toHaveLength(1);
    clock.t = NOW + 3000;
    await dispatcher.tick();
    expect(r.got.map((g) => g.id)).toEqual(['evt_1', 'evt_1']);
    const [row] = await store().deliveries.listByChannel(ch, 1);
    expect(row).toMatchObject({ status: 'sent', attempts: 2, lastStatus: 200 });
  });

  it('marks a 400 dead with the answer kept', async () => {
    await addOrganization(store());
    const r = await receiver();
    r.handle = (_req, res) => res.writeHead(400).end('{"message":"Invalid Form Body"}');
    const ch = await addChannel(store(), 'a', r.url);
    await store().deliveries.enqueue([delivery(ch, 'evt_1')], NOW);
    const { clock, dispatcher } = setup(store());
    await dispatcher.tick();
    clock.t += 3_600_000;
    await dispatcher.tick();
    expect(r.got).toHaveLength(1);
    const [row] = await store().deliveries.listByChannel(ch, 1);
    expect(row).toMatchObject({ status: 'dead', lastStatus: 400, lastAnswer: '{"message":"Invalid Form Body"}', lastError: 'HTTP 400' });
  });

  it('marks a delivery dead when the channel config no longer parses', async () => {
    await addOrganization(store());
    const id = 'nch_bad';
    await store().channels.insert({ id, organizationId: ORG.id, key: 'bad', name: 'bad', type: 'test-hook', config: { nope: 1 }, rules: {}, enabled: true, managedBy: 'api' }, NOW);
    await store().deliveries.enqueue([delivery(id, 'evt_1')], NOW);
    const { dispatcher } = setup(store());
    await dispatcher.tick();
    const [row] = await store().deliveries.listByChannel(id, 1);
    expect(row?.status).toBe('dead');
    expect(row?.lastError).toMatch(/invalid channel config/);
  });

  it('delivers to a receiver that was down once it is up, in order per monitor', async () => {
    await addOrganization(store());
    const probe = await receiver();
    const port = probe.port;
    await probe.close();
    servers.splice(0);
    const ch = await addChannel(store(), 'a', `http://127.0.0.1:${port}/hook`);
    await store().deliveries.enqueue([delivery(ch, 'evt_1')], NOW);
    await store().deliveries.enqueue([delivery(ch, 'evt_2')], NOW + 1);
    const { clock, dispatcher } = setup(store());
    for (let i = 0; i < 3; i++) {
      await dispatcher.tick();
      clock.t += 60_000;
    }
    expect(await statusOf(store(), ch)).toEqual(['pending', 'pending']);
    const r = await receiver(port);
    for (let i = 0; i < 6 && (await statusOf(store(), ch)).some((s) => s !== 'sent'); i++) {
      clock.t += 3_600_000;
      await dispatcher.tick();
    }
    expect(r.got.map((g) => g.id)).toEqual(['evt_1', 'evt_2']);
    expect(await statusOf(store(), ch)).toEqual(['sent', 'sent']);
  });

  it('sends again with the same event id after a crash mid-send (the claim lapses)', async () => {
    await addOrganization(store());
    const r = await receiver();
    r.handle = () => {}; // never answers: the sender is "killed" mid-send
    const ch = await addChannel(store(), 'a', r.url);
    await store().deliveries.enqueue([delivery(ch, 'evt_1')], NOW);
    const first = setup(killable(store()), { leaseMs: 60_000, stopGraceMs: 20 });
    const sending = first.dispatcher.tick();
    while (r.got.length === 0) await new Promise((resolve) => setTimeout(resolve, 10));
    await first.dispatcher.stop();
    await sending;
    expect(await statusOf(store(), ch)).toEqual(['sending']);
    r.handle = (_req, res) => res.writeHead(204).end();
    const second = setup(store(), { leaseMs: 60_000 });
    second.clock.t = NOW + 59_999;
    await second.dispatcher.tick();
    expect(r.got).toHaveLength(1);
    second.clock.t = NOW + 60_000;
    await second.dispatcher.tick();
    expect(r.got.map((g) => g.id)).toEqual(['evt_1', 'evt_1']);
    expect(await statusOf(store(), ch)).toEqual(['sent']);
  });

  it('releases the claim of a send unfinished at stop: a new dispatcher sends it at once, same event id', async () => {
    await addOrganization(store());
    const r = await receiver();
    r.handle = () => {}; // slower than the stop grace
    const ch = await addChannel(store(), 'a', r.url);
    await store().deliveries.enqueue([delivery(ch, 'evt_1')], NOW);
    const first = setup(store(), { stopGraceMs: 50 });
    const sending = first.dispatcher.tick();
    await waitFor(() => r.got.length > 0);
    await first.dispatcher.stop();
    await sending;
    const [released] = await store().deliveries.listByChannel(ch, 1);
    expect(released).toMatchObject({ status: 'pending', attempts: 0, claimedUntil: null, nextAttemptAt: NOW });
    r.handle = (_req, res) => res.writeHead(204).end();
    // Same instant on the injected clock: no waiting for the 5-minute lease.
    const second = setup(store());
    await second.dispatcher.tick();
    expect(r.got.map((g) => g.id)).toEqual(['evt_1', 'evt_1']);
    const [row] = await store().deliveries.listByChannel(ch, 1);
    expect(row).toMatchObject({ status: 'sent', attempts: 1 });
  });

  it('acknowledges a send that finishes within the stop grace and releases those queued behind it', async () => {
    await addOrganization(store());
    const r = await receiver();
    let answer: () => void = () => {};
    r.handle = (_req, res) => {
      answer = () => res.writeHead(204).end();
    };
    const ch = await addChannel(store(), 'a', r.url);
    await store().deliveries.enqueue([delivery(ch, 'evt_1', 'mon_1'), delivery(ch, 'evt_2', 'mon_2')], NOW);
    const { dispatcher } = setup(store(), { stopGraceMs: 5000 });
    const sending = dispatcher.tick();
    await waitFor(() => r.got.length > 0);
    const stopped = dispatcher.stop();
    setTimeout(() => answer(), 50);
    await stopped;
    await sending;
    expect(r.got.map((g) => g.id)).toEqual(['evt_1']);
    const log = await store().deliveries.listByChannel(ch, 10);
    expect(log.find((d) => d.eventId === 'evt_1')).toMatchObject({ status: 'sent', attempts: 1 });
    expect(log.find((d) => d.eventId === 'evt_2')).toMatchObject({ status: 'pending', attempts: 0, claimedUntil: null });
  });

  it('does not let a slow channel delay another', async () => {
    await addOrganization(store());
    const slow = await receiver();
    let release: () => void = () => {};
    slow.handle = (_req, res) => {
      release = () => res.writeHead(204).end();
    };
    const fast = await receiver();
    const a = await addChannel(store(), 'slow', slow.url);
    const b = await addChannel(store(), 'fast', fast.url);
    await store().deliveries.enqueue([delivery(a, 'evt_1'), delivery(b, 'evt_1')], NOW);
    const { dispatcher } = setup(store());
    const round = dispatcher.tick();
    for (let i = 0; i < 200 && (await statusOf(store(), b))[0] !== 'sent'; i++) await new Promise((resolve) => setTimeout(resolve, 10));
    expect(await statusOf(store(), b)).toEqual(['sent']);
    expect(await statusOf(store(), a)).toEqual(['sending']);
    while (slow.got.length === 0) await new Promise((resolve) => setTimeout(resolve, 10));
    release();
    await round;
    expect(await statusOf(store(), a)).toEqual(['sent']);
  });

  it('sends up to the channel’s maxInFlight at once, each monitor’s events one after another in order', async () => {
    await addOrganization(store());
    const r = await receiver();
    let active = 0;
    let most = 0;
    r.handle = (_req, res) => {
      active += 1;
      most = Math.max(most, active);
      setTimeout(() => {
        active -= 1;
        res.writeHead(204).end();
      }, 30);
    };
    const ch = await addChannel(store(), 'wide', r.url, 'wide-hook');
    const monitors = Array.from({ length: 6 }, (_, i) => `mon_${i}`);
    await store().deliveries.enqueue(monitors.map((m) => delivery(ch, `${m}_1`, m)), NOW);
    await store().deliveries.enqueue(monitors.map((m) => delivery(ch, `${m}_2`, m)), NOW + 1);
    const { dispatcher } = setup(store());
    for (let i = 0; i < 3; i++) await dispatcher.tick();
    expect(r.got).toHaveLength(12);
    expect(most).toBe(4);
    const order = r.got.map((g) => g.id);
    for (const m of monitors) expect(order.indexOf(`${m}_1`)).toBeLessThan(order.indexOf(`${m}_2`));
    expect(new Set(await statusOf(store(), ch))).toEqual(new Set(['sent']));
  });

  it('pauses the whole channel on a 429 until its Retry-After, and no other channel', async () => {
    await addOrganization(store());
    const limited = await receiver();
    let answered = 0;
    limited.handle = (_req, res) => {
      answered += 1;
      if (answered === 1) res.writeHead(429, { 'retry-after': '3' }).end();
      else res.writeHead(204).end();
    };
    const other = await receiver();
    const a = await addChannel(store(), 'limited', limited.url);
    const b = await addChannel(store(), 'other', other.url);
    await store().deliveries.enqueue([delivery(a, 'evt_1', 'mon_1'), delivery(a, 'evt_2', 'mon_2'), delivery(b, 'evt_3', 'mon_3')], NOW);
    const { clock, dispatcher } = setup(store());
    await dispatcher.tick();
    expect(limited.got.map((g) => g.id)).toEqual(['evt_1']);
    expect(other.got.map((g) => g.id)).toEqual(['evt_3']);
    // Handed back unsent, due when the pause ends: no attempt counted.
    const waiting = (await store().deliveries.listByChannel(a, 10)).find((d) => d.eventId === 'evt_2');
    expect(waiting).toMatchObject({ status: 'pending', attempts: 0, nextAttemptAt: NOW + 3000 });
    clock.t = NOW + 2999;
    await dispatcher.tick();
    expect(limited.got).toHaveLength(1);
    clock.t = NOW + 3000;
    await dispatcher.tick();
    expect(limited.got.map((g) => g.id)).toEqual(['evt_1', 'evt_1', 'evt_2']);
    expect(await statusOf(store(), a)).toEqual(['sent', 'sent']);
  });

  it('does not let a slow channel’s backlog crowd another out of the claims', async () => {
    await addOrganization(store());
    const slow = await receiver();
    const answers: (() => void)[] = [];
    slow.handle = (_req, res) => answers.push(() => res.writeHead(204).end());
    const fast = await receiver();
    const a = await addChannel(store(), 'slow', slow.url);
    const b = await addChannel(store(), 'fast', fast.url);
    await store().deliveries.enqueue(
      Array.from({ length: 10 }, (_, i) => delivery(a, `evt_${i}`, `mon_${i}`)),
      NOW,
    );
    await store().deliveries.enqueue([delivery(b, 'evt_fast', 'mon_x')], NOW + 1);
    const { dispatcher } = setup(store(), { maxHeld: 6, maxHeldPerChannel: 3, pollMs: 20 });
    dispatcher.start();
    await waitFor(async () => (await statusOf(store(), b))[0] === 'sent');
    expect(await statusOf(store(), b)).toEqual(['sent']);
    expect(slow.got).toHaveLength(1);
    for (const answer of answers) answer();
  });

  it('hands a delivery back unsent when its claim would lapse before its send could finish', async () => {
    await addOrganization(store());
    const r = await receiver();
    let answer: () => void = () => {};
    r.handle = (_req, res) => {
      answer = () => res.writeHead(204).end();
    };
    const ch = await addChannel(store(), 'a', r.url);
    await store().deliveries.enqueue([delivery(ch, 'evt_1', 'mon_1'), delivery(ch, 'evt_2', 'mon_2')], NOW);
    const { clock, dispatcher } = setup(store(), { leaseMs: 60_000 });
    const round = dispatcher.tick();
    await waitFor(() => r.got.length > 0);
    // The first send took most of the lease: the second could not finish (2 s) before its claim lapses at NOW + 60 s.
    clock.t = NOW + 58_500;
    answer();
    await round;
    expect(r.got.map((g) => g.id)).toEqual(['evt_1']);
    const handedBack = (await store().deliveries.listByChannel(ch, 10)).find((d) => d.eventId === 'evt_2');
    expect(handedBack).toMatchObject({ status: 'pending', attempts: 0, claimedUntil: null, nextAttemptAt: NOW + 58_500 });
    r.handle = (_req, res) => res.writeHead(204).end();
    await dispatcher.tick();
    expect(r.got.map((g) => g.id)).toEqual(['evt_1', 'evt_2']);
    expect(await statusOf(store(), ch)).toEqual(['sent', 'sent']);
  });

  it('sends a channel’s other retries at once when one goes through after failing (the receiver is back)', async () => {
    await addOrganization(store());
    const probe = await receiver();
    const port = probe.port;
    await probe.close();
    servers.splice(0);
    const ch = await addChannel(store(), 'a', `http://127.0.0.1:${port}/hook`);
    await store().deliveries.enqueue([delivery(ch, 'evt_1', 'mon_1'), delivery(ch, 'evt_2', 'mon_2')], NOW);
    const draws = [0.1, 0.9];
    const { clock, dispatcher } = setup(store(), {}, () => draws.shift() ?? 0.5);
    await dispatcher.tick();
    const due = async () => Object.fromEntries((await store().deliveries.listByChannel(ch, 10)).map((d) => [d.eventId, d.nextAttemptAt]));
    expect(await due()).toEqual({ evt_1: NOW + 500, evt_2: NOW + 4500 });
    const r = await receiver(port);
    clock.t = NOW + 500;
    await dispatcher.tick();
    expect(r.got.map((g) => g.id)).toEqual(['evt_1']);
    expect((await due()).evt_2).toBe(NOW + 500);
    await dispatcher.tick();
    expect(r.got.map((g) => g.id)).toEqual(['evt_1', 'evt_2']);
  });

  it("sends each delivery under its organization's target policy: refused ones are dead, having reached nothing", async () => {
    // Two organizations under `auto`: each without a setting of its own is denied private addresses; Globex allows them.
    await addOrganization(store());
    await store().organizations.upsert({ ...OTHER_ORG, probePrivateTargets: 'allow' }, NOW);
    const r = await receiver();
    const denied = await addChannel(store(), 'a', r.url);
    const allowedId = 'nch_b';
    await store().channels.insert(
      { id: allowedId, organizationId: OTHER_ORG.id, key: 'b', name: 'b', type: 'test-hook', config: { url: r.url }, rules: {}, enabled: true, managedBy: 'api' },
      NOW,
    );
    await store().deliveries.enqueue([delivery(denied, 'evt_denied'), { ...delivery(allowedId, 'evt_allowed'), organizationId: OTHER_ORG.id }], NOW);
    const { dispatcher } = setup(store());
    await dispatcher.tick();
    expect(r.got.map((g) => g.id)).toEqual(['evt_allowed']);
    const [refused] = await store().deliveries.listByChannel(denied, 10);
    expect(refused).toMatchObject({ status: 'dead', lastStatus: null, lastAnswer: null, lastError: expect.stringMatching(/^refused by policy: 127\.0\.0\.1 is a loopback address;/) });
  });
});
