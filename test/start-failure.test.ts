// A start that fails part-way leaves nothing open: each part of the server's lifecycle (src/runtime/lifecycle.ts) is made
// to fail in turn, and then no port is still listening, no database connection is open (SQLite: no descriptor on the
// file; PostgreSQL: no session of this server's application_name), no Redis connection of this instance is left, no
// cluster lease is held, and the process holds no more sockets or timers than before.
import { randomBytes } from 'node:crypto';
import { readdirSync, readlinkSync } from 'node:fs';
import { createServer } from 'node:net';
import { Redis } from 'ioredis';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readSettings } from '../src/config/settings.js';
import { createLogger } from '../src/logger.js';
import { startWarden } from '../src/main.js';
import { dialects, type OpenedStore, POSTGRES_URL } from './store-dialects.js';
import { scaled } from './time-scale.js';

const INJECTED = 'injected start failure';
const REDIS_URL = process.env.WARDEN_TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
/** Redis reachable (test/cluster-harness.ts asks the same, but needs the build): else the cluster case is skipped, said so. */
const redisAvailable = await (async () => {
  const client = new Redis(REDIS_URL, {
    lazyConnect: true,
    connectTimeout: 2000,
    maxRetriesPerRequest: 0,
    retryStrategy: () => null,
  });
  client.on('error', () => {});
  try {
    await client.connect();
    return (await client.ping()) === 'PONG';
  } catch {
    return false;
  } finally {
    client.disconnect();
  }
})();
if (!redisAvailable)
  console.warn(`\n  ⚠ Redis is not reachable at ${REDIS_URL}: the cluster start-failure test is SKIPPED.\n`);

interface Case {
  name: string;
  available: boolean;
  dialect: 'sqlite' | 'postgres';
  cluster: boolean;
}

const CASES: Case[] = [
  { name: 'SQLite', available: true, dialect: 'sqlite', cluster: false },
  { name: 'PostgreSQL', available: dialects[1]?.available ?? false, dialect: 'postgres', cluster: false },
  {
    name: 'a cluster (PostgreSQL and Redis)',
    available: (dialects[1]?.available ?? false) && redisAvailable,
    dialect: 'postgres',
    cluster: true,
  },
];

for (const setup of CASES) {
  describe.skipIf(!setup.available)(`a server on ${setup.name} whose start fails`, () => {
    let opened: OpenedStore;
    const id = randomBytes(4).toString('hex');
    const applicationName = `warden-start-failure-${id}`;
    const instanceId = `start-failure-${id}`;
    let env: Record<string, string> = {};
    let partNames: string[] = [];

    beforeAll(async () => {
      opened = await (dialects.find((d) => d.name === setup.dialect) as (typeof dialects)[number]).open();
      // SQLite: only the server under test may hold the file open.
      if (setup.dialect === 'sqlite') await opened.store.close();
      env = {
        ...opened.env,
        ...(setup.dialect === 'postgres'
          ? { DATABASE_URL: `${POSTGRES_URL}?application_name=${applicationName}` }
          : {}),
        HOST: '127.0.0.1',
        LOG_LEVEL: 'silent',
        WARDEN_METRICS_PORT: '1',
        ...(setup.cluster ? { REDIS_URL, WARDEN_REDIS_PREFIX: `test-${id}`, WARDEN_INSTANCE_ID: instanceId } : {}),
      };
      // A start that succeeds names every part, in order.
      const [port, metricsPort] = await freePorts(2);
      const warden = await startWarden({
        settings: readSettings({ ...env, PORT: String(port), WARDEN_METRICS_PORT: String(metricsPort) }),
        logger: createLogger('silent'),
        afterStart: (name) => void partNames.push(name),
      });
      await warden.close();
      partNames = [...partNames];
    });
    afterAll(async () => {
      await opened?.cleanup();
    });

    it('names its parts: the store first, serving last', () => {
      expect(partNames[0]).toBe('store');
      expect(partNames.at(-1)).toBe('serving');
      for (const name of [
        'migrate',
        'services',
        'http',
        'metrics-port',
        'config',
        'local-setup',
        'pages',
        'scheduler',
        'dispatcher',
      ])
        expect(partNames, name).toContain(name);
      if (setup.cluster)
        for (const name of ['redis', 'coordinator', 'activity-poll']) expect(partNames, name).toContain(name);
    });

    it('leaves no port, database connection, Redis connection, lease, socket or timer behind, whichever part fails', {
      timeout: scaled(240_000),
    }, async () => {
      expect(partNames.length).toBeGreaterThan(10);
      const before = resources();
      for (const failing of partNames) {
        const [port, metricsPort] = await freePorts(2);
        const settings = readSettings({ ...env, PORT: String(port), WARDEN_METRICS_PORT: String(metricsPort) });
        const started = startWarden({
          settings,
          logger: createLogger('silent'),
          afterStart: (name) => {
            if (name === failing) throw new Error(INJECTED);
          },
        });
        await expect(started, failing).rejects.toThrow(INJECTED);

        expect(await canListen(port), `${failing}: the server's port is free`).toBe(true);
        expect(await canListen(metricsPort), `${failing}: the metrics port is free`).toBe(true);
        if (setup.dialect === 'sqlite')
          expect(openFilesUnder(env.WARDEN_DATA_DIR ?? ''), `${failing}: SQLite files open`).toEqual([]);
        else expect(await settled(() => postgresSessions(applicationName)), `${failing}: PostgreSQL sessions`).toBe(0);
        if (setup.cluster) {
          expect(await settled(() => redisClients(instanceId)), `${failing}: Redis connections`).toBe(0);
          const leases = await opened.store.cluster.listLeases();
          expect(
            leases.filter((lease) => lease.holder === instanceId),
            `${failing}: leases held`,
          ).toEqual([]);
        }
        expect(await settledResources(before), `${failing}: sockets, servers and timers left`).toEqual({
          TCPServerWrap: 0,
          TCPSocketWrap: 0,
          Timeout: 0,
        });
      }
    });
  });
}

/** Sockets, listening servers and timers this process holds (what a part left open would add to). */
function resources(): Record<string, number> {
  const counts: Record<string, number> = { TCPServerWrap: 0, TCPSocketWrap: 0, Timeout: 0 };
  for (const kind of process.getActiveResourcesInfo()) if (kind in counts) counts[kind] = (counts[kind] ?? 0) + 1;
  return counts;
}

/** What this process holds beyond `before`, once nothing is (or after two seconds: closing takes a few ticks). */
async function settledResources(before: Record<string, number>): Promise<Record<string, number>> {
  const deadline = Date.now() + 2_000;
  for (;;) {
    const excess = Object.fromEntries(
      Object.entries(resources()).map(([kind, count]) => [kind, Math.max(0, count - (before[kind] ?? 0))]),
    );
    if (Object.values(excess).every((n) => n === 0) || Date.now() > deadline) return excess;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** `count()` once it is 0, or its value after two seconds (a closed connection leaves the server's list a moment later). */
async function settled(count: () => Promise<number>): Promise<number> {
  const deadline = Date.now() + 2_000;
  for (;;) {
    const value = await count();
    if (value === 0 || Date.now() > deadline) return value;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

async function postgresSessions(applicationName: string): Promise<number> {
  const client = new pg.Client({ connectionString: POSTGRES_URL });
  await client.connect();
  try {
    const { rows } = await client.query<{ n: number }>(
      'select count(*)::int as n from pg_stat_activity where application_name = $1',
      [applicationName],
    );
    return rows[0]?.n ?? 0;
  } finally {
    await client.end();
  }
}

async function redisClients(instanceId: string): Promise<number> {
  const client = new Redis(REDIS_URL, { maxRetriesPerRequest: 0 });
  try {
    const list = (await client.client('LIST')) as string;
    return list.split('\n').filter((line) => line.includes(` name=warden:${instanceId}:`)).length;
  } finally {
    client.disconnect();
  }
}

/** Files under `dir` this process holds open (Linux: /proc/self/fd). */
function openFilesUnder(dir: string): string[] {
  const open: string[] = [];
  for (const fd of readdirSync('/proc/self/fd')) {
    try {
      const target = readlinkSync(`/proc/self/fd/${fd}`);
      if (dir && target.startsWith(dir)) open.push(target);
    } catch {
      // Closed while listing.
    }
  }
  return open;
}

function canListen(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = createServer();
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
  });
}

async function freePorts(count: 2): Promise<[number, number]> {
  const servers = await Promise.all(
    Array.from(
      { length: count },
      () =>
        new Promise<ReturnType<typeof createServer>>((resolve, reject) => {
          const server = createServer();
          server.once('error', reject);
          server.listen(0, '127.0.0.1', () => resolve(server));
        }),
    ),
  );
  const ports = servers.map((server) => (server.address() as { port: number }).port);
  await Promise.all(servers.map((server) => new Promise((resolve) => server.close(resolve))));
  return ports as [number, number];
}
