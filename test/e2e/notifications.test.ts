// Alerts end to end. A real `warden serve` process checks a TCP port we close and reopen, and posts to a fake Discord:
// one "down" within interval × (retries + 1) + 5 s, one "recovered" with the downtime, a 429 with Retry-After: 3
// honoured, and a kill -9 right after the change committed still gives exactly one message after the restart (SQLite and
// PostgreSQL). A webhook receiver down for two minutes: notifications-outage.test.ts.
import { createServer, type Server } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Monitor } from '../../src/domain/monitor.js';
import type { Store } from '../../src/store/index.js';
import { type ServerProcess, startServer } from '../cli-process.js';
import { type Receiver, startReceiver } from '../fakes/notify-receivers.js';
import { seed } from '../seed.js';
import { type DialectCase, dialects, type OpenedStore } from '../store-dialects.js';
import { scaled } from '../time-scale.js';

const INTERVAL_SEC = 1;
const RETRIES = 1;
/** The bound for the first message: interval × (retries + 1) + 5 s. */
const DOWN_BOUND_MS = INTERVAL_SEC * (RETRIES + 1) * 1000 + 5000;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function until<T>(
  what: string,
  check: () => Promise<T | undefined | null | false> | T | undefined | null | false,
  timeoutMs = 10_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await sleep(25);
  }
}

/** A TCP port we open and close at will, on the same number each time. */
async function listenOn(port: number): Promise<Server> {
  const server = createServer((socket) => socket.destroy());
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', resolve);
  });
  return server;
}
const closeServer = (server: Server) => new Promise<void>((resolve) => server.close(() => resolve()));

/** What the fake Discord showed: the messages it accepted (2xx), with when each came. */
interface Posted {
  title: string;
  fields: { name: string; value: string }[];
  at: number;
}

/** One server process over a store, a TCP monitor (1 s, retries 1) against `port`, a Discord channel to `discord`. */
class Scenario {
  opened!: OpenedStore;
  store!: Store;
  server: ServerProcess | null = null;
  monitor!: Monitor;
  channelId!: string;
  port!: Server;
  portNumber = 0;
  discord!: Receiver;
  discordPort = 0;
  posted: Posted[] = [];
  /** Every request Discord got, accepted or not, with when. */
  seen: number[] = [];
  /** How the next Discord request is answered: its status and headers. */
  respond: () => { status: number; headers?: Record<string, string>; body?: string } = () => ({ status: 204 });

  async start(dialect: DialectCase): Promise<void> {
    this.port = await listenOn(0);
    this.portNumber = (this.port.address() as { port: number }).port;
    await this.startDiscord(0);
    this.opened = await dialect.open();
    this.store = this.opened.store;
    const { monitors, report } = await seed(
      this.store,
      `
organization: { key: acme, name: Acme Games }
monitors:
  - { key: lobby, name: Lobby, type: tcp, retries: ${RETRIES}, timeoutMs: 800, config: { host: 127.0.0.1, port: ${this.portNumber} } }
notifications:
  - { key: ops-discord, name: Ops on Discord, type: discord, config: { url: "http://127.0.0.1:${this.discordPort}/api/webhooks/1/x" } }
`,
      Date.now(),
    );
    // One-second checks: below warden.yaml's 10 s minimum, so set directly; the server then serves what the database holds.
    const lobby = monitors.lobby as Monitor;
    await this.store.monitors.updateSpec(
      lobby.id,
      { ...lobby, intervalSec: INTERVAL_SEC },
      lobby.managedBy,
      Date.now(),
    );
    this.monitor = lobby;
    this.channelId = (await this.store.channels.findByKey(report.organization.id, 'ops-discord'))?.id as string;
    await this.startServer();
    await until('the monitor up', async () => (await this.store.monitors.findById(lobby.id))?.state === 'up');
  }

  async startServer(): Promise<void> {
    this.server = await startServer([], {
      ...this.opened.env,
      WARDEN_PROBE_PRIVATE_TARGETS: 'allow',
      LOG_LEVEL: 'info',
    });
  }

  async startDiscord(port: number): Promise<void> {
    this.discord = await startReceiver((res) => {
      const answer = this.respond();
      this.seen.push(Date.now());
      const embed = (
        this.discord.requests.at(-1)?.json as { embeds?: { title: string; fields: Posted['fields'] }[] } | undefined
      )?.embeds?.[0];
      if (answer.status < 300 && embed) this.posted.push({ title: embed.title, fields: embed.fields, at: Date.now() });
      res.writeHead(answer.status, answer.headers);
      res.end(answer.body ?? '');
    }, port);
    this.discordPort = Number(new URL(this.discord.url).port);
  }

  state = async () => (await this.store.monitors.findById(this.monitor.id))?.state;
  deliveries = () => this.store.deliveries.listByChannel(this.channelId, 50);

  async stop(): Promise<void> {
    await this.server?.stop('SIGKILL');
    await this.discord?.close();
    if (this.port.listening) await closeServer(this.port);
    await this.opened?.cleanup();
  }
}

const sqlite = dialects.find((d) => d.name === 'sqlite') as DialectCase;

describe('alerts from a real server process (sqlite)', () => {
  const s = new Scenario();
  beforeAll(() => s.start(sqlite), 30_000);
  afterAll(() => s.stop());

  it('posts one "down" within interval × (retries + 1) + 5 s of the port closing, then one "recovered" with the downtime', {
    timeout: scaled(20_000),
  }, async () => {
    const closedAt = Date.now();
    await closeServer(s.port);
    const down = await until(
      'the down message',
      () => s.posted.find((p) => p.title === 'Lobby is down'),
      DOWN_BOUND_MS + 1000,
    );
    expect(down.at - closedAt).toBeLessThanOrEqual(DOWN_BOUND_MS);
    const downFor = 2_500;
    await sleep(downFor);
    s.port = await listenOn(s.portNumber);
    const up = await until(
      'the recovered message',
      () => s.posted.find((p) => p.title.startsWith('Lobby is back up')),
      6_000,
    );
    // The downtime: from the state change to the recovery, in the title and as a field.
    const downtimeSec = Math.round((up.at - down.at) / 1000);
    expect(up.title).toMatch(/^Lobby is back up after (\d+) s$/);
    const titled = Number(/after (\d+) s/.exec(up.title)?.[1]);
    expect(Math.abs(titled - downtimeSec)).toBeLessThanOrEqual(1);
    expect(up.fields).toContainEqual({ name: 'Downtime', value: `${titled} s`, inline: true });
    // Two more checks' worth of time: nothing else is posted.
    await sleep(2 * INTERVAL_SEC * 1000 + 500);
    expect(s.posted.map((p) => p.title)).toEqual(['Lobby is down', up.title]);
  });

  it('waits out a 429 with Retry-After: 3 (nothing for 3 s), then posts the message once', {
    timeout: scaled(20_000),
  }, async () => {
    s.posted.length = 0;
    s.seen.length = 0;
    let limited = false;
    s.respond = () => {
      if (limited) return { status: 204 };
      limited = true;
      return {
        status: 429,
        headers: { 'retry-after': '3', 'content-type': 'application/json' },
        body: '{"message":"You are being rate limited.","retry_after":3,"global":false}',
      };
    };
    await closeServer(s.port);
    const down = await until(
      'the down message',
      () => s.posted.find((p) => p.title === 'Lobby is down'),
      DOWN_BOUND_MS + 5000,
    );
    const [refused, next] = s.seen;
    expect(s.seen).toHaveLength(2);
    expect((next as number) - (refused as number)).toBeGreaterThanOrEqual(3000);
    expect(down.at - (refused as number)).toBeLessThan(3000 + 1500);
    expect(s.posted).toHaveLength(1);
    s.respond = () => ({ status: 204 });
    s.port = await listenOn(s.portNumber);
    await until('the recovery', () => s.posted.find((p) => p.title.startsWith('Lobby is back up')), 6_000);
  });

  it('still posts the message exactly once after a kill -9 right after the change committed', {
    timeout: scaled(30_000),
  }, async () => {
    s.posted.length = 0;
    await killRightAfterTheChange(s);
    const up = await until(
      'the message after the restart',
      () => s.posted.find((p) => p.title === 'Lobby is down'),
      15_000,
    );
    expect(up).toBeDefined();
    await sleep(1000);
    expect(s.posted.map((p) => p.title)).toEqual(['Lobby is down']);
  });
});

for (const dialect of dialects.filter((d) => d.name === 'postgres'))
  describe.skipIf(!dialect.available)(`alerts from a real server process (${dialect.name})`, () => {
    const s = new Scenario();
    beforeAll(() => s.start(dialect), 30_000);
    afterAll(() => s.stop());

    it('still posts the message exactly once after a kill -9 right after the change committed', {
      timeout: scaled(30_000),
    }, async () => {
      await killRightAfterTheChange(s);
      await until('the message after the restart', () => s.posted.find((p) => p.title === 'Lobby is down'), 15_000);
      await sleep(1000);
      expect(s.posted.map((p) => p.title)).toEqual(['Lobby is down']);
    });
  });

/**
 * Discord is unreachable (nothing listens on its port) when the port closes: the change and its delivery commit, the
 * first attempt is refused. Killed (SIGKILL) while the delivery waits for its retry — committed, not sent — then
 * Discord comes back and the server restarts on the same database.
 */
async function killRightAfterTheChange(s: Scenario): Promise<void> {
  await s.discord.close();
  const before = (await s.deliveries()).length;
  await closeServer(s.port);
  await until(
    'the down delivery committed, waiting for its retry',
    async () => {
      const [latest] = await s.deliveries();
      const waiting =
        (await s.deliveries()).length > before && latest?.kind === 'monitor.down' && latest.status === 'pending';
      // Far enough from its retry that the kill lands before it, never in the middle of a send.
      return waiting && latest.nextAttemptAt - Date.now() > 400;
    },
    20_000,
  );
  expect(await s.state()).toBe('down');
  await s.server?.stop('SIGKILL');
  await s.startDiscord(s.discordPort);
  await s.startServer();
}
