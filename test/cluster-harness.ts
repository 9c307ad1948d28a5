// A Warden cluster of real `warden serve` processes on one fresh PostgreSQL schema and Redis (through a TCP proxy a test
// closes to take Redis away), for the cluster end-to-end tests and `npm run bench cluster`; and the cadence analysis that
// says whether every (monitor, interval) was checked exactly once.
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import pg from 'pg';
import { SHARD_COUNT } from '../src/domain/cluster.js';
import type { Store } from '../src/store/index.js';
import { type ServerProcess, startServer } from './cli-process.js';
import { dialects, type OpenedStore, POSTGRES_URL, postgresAvailable } from './store-dialects.js';

export const REDIS_URL = process.env.WARDEN_TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
/** The setting that keeps one cluster's Redis keys and channels apart from another's on the same server (pub/sub ignores databases). */
export const REDIS_PREFIX_SETTING = 'WARDEN_REDIS_PREFIX';

async function redisReachable(url: string): Promise<boolean> {
  const client = new Redis(url, {
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
}

export const redisAvailable = await redisReachable(REDIS_URL);
if (!redisAvailable && process.env.WARDEN_TEST_REQUIRE_REDIS === '1')
  // CI has Redis: a run that skipped the cluster tests would pass without testing cluster mode at all.
  throw new Error(`Redis is not reachable at ${REDIS_URL}, and WARDEN_TEST_REQUIRE_REDIS=1 requires it`);
if (!redisAvailable) console.warn(`\n  ⚠ Redis is not reachable at ${REDIS_URL}: the cluster tests are SKIPPED.\n`);
/** Cluster mode needs both engines. */
export const clusterAvailable = postgresAvailable && redisAvailable;

import { TcpProxy } from './fakes/switchable-proxy.js';

export { TcpProxy };

/** Local TCP targets: servers that accept a connection and end it, as a TCP monitor's probe needs. */
export async function startTcpTargets(count: number): Promise<{ ports: number[]; close(): Promise<void> }> {
  const servers: Server[] = [];
  for (let i = 0; i < count; i++) {
    const server = createServer((socket) => {
      socket.on('error', () => {});
      socket.end();
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
    servers.push(server);
  }
  return {
    ports: servers.map((s) => (s.address() as { port: number }).port),
    close: async () => {
      await Promise.all(servers.map((s) => new Promise((resolve) => s.close(resolve))));
    },
  };
}

export interface ClusterOptions {
  /** Instance ids of the processes to start, e.g. ['a', 'b', 'c']. */
  instances: string[];
  /** Put a TcpProxy in front of Redis so a test can stop it. */
  redisProxy?: boolean;
  /** No REDIS_URL: processes sharing PostgreSQL without cluster mode (a baseline for benchmarks). */
  withoutRedis?: boolean;
  /** Instances that reach PostgreSQL through a TcpProxy of their own (`postgresProxy(id)`), to cut them off from it. */
  postgresProxies?: string[];
  /** More environment for every process. */
  env?: Record<string, string>;
  /** Fills the store before any process starts (monitors, pages, channels…). */
  seed?: (store: Store) => Promise<void>;
  /** LOG_LEVEL of the processes; info by default (tests read the runner's reports). */
  logLevel?: string;
}

/** N `warden serve` processes sharing one PostgreSQL schema and one Redis prefix. */
export class Cluster {
  readonly members = new Map<string, ServerProcess>();
  /** When each instance was last killed and last started (epoch ms). */
  readonly killedAt = new Map<string, number>();
  readonly startedAt = new Map<string, number>();
  /** This cluster's WARDEN_REDIS_PREFIX: its keys are `<prefix>:…`, its channels too. */
  readonly prefix = `wt${process.pid}${Math.random().toString(36).slice(2, 8)}`;
  private readonly dataDirs = new Map<string, string>();
  private readonly postgresProxies = new Map<string, TcpProxy>();
  private readonly pool: pg.Pool;

  private constructor(
    readonly opened: OpenedStore,
    readonly redis: TcpProxy | null,
    private readonly options: ClusterOptions,
  ) {
    const schema = opened.env.DATABASE_SCHEMA as string;
    this.pool = new pg.Pool({ connectionString: POSTGRES_URL, max: 2, options: `-c search_path=${schema}` });
    this.pool.on('error', () => {});
  }

  /** A fresh, migrated schema (seeded), Redis (through a proxy if asked), then every instance started at once. */
  static async start(options: ClusterOptions): Promise<Cluster> {
    const postgres = dialects.find((d) => d.name === 'postgres');
    if (!postgres?.available) throw new Error('the cluster needs PostgreSQL');
    const opened = await postgres.open();
    const redis = options.redisProxy ? await TcpProxy.toRedis(REDIS_URL) : null;
    const cluster = new Cluster(opened, redis, options);
    try {
      const { hostname, port } = new URL(POSTGRES_URL);
      for (const id of options.postgresProxies ?? []) {
        const proxy = new TcpProxy(hostname, Number(port || 5432));
        await proxy.open();
        cluster.postgresProxies.set(id, proxy);
      }
      await options.seed?.(opened.store);
      await Promise.all(options.instances.map((id) => cluster.startMember(id)));
    } catch (error) {
      await cluster.close();
      throw error;
    }
    return cluster;
  }

  get store(): Store {
    return this.opened.store;
  }

  get schema(): string {
    return this.opened.env.DATABASE_SCHEMA as string;
  }

  /** The proxy between an instance and PostgreSQL (ClusterOptions.postgresProxies): close it to partition them. */
  postgresProxy(instanceId: string): TcpProxy {
    const proxy = this.postgresProxies.get(instanceId);
    if (!proxy) throw new Error(`instance ${instanceId} reaches PostgreSQL directly`);
    return proxy;
  }

  /** The environment a process of this cluster runs with (also what `warden` CLI commands need to reach it). */
  env(instanceId: string): Record<string, string> {
    let dataDir = this.dataDirs.get(instanceId);
    if (!dataDir) {
      dataDir = mkdtempSync(join(tmpdir(), `warden-cluster-${instanceId}-`));
      this.dataDirs.set(instanceId, dataDir);
    }
    const proxy = this.postgresProxies.get(instanceId);
    const databaseUrl = new URL(POSTGRES_URL);
    if (proxy) databaseUrl.host = `127.0.0.1:${proxy.port}`;
    return {
      ...this.opened.env,
      ...(proxy ? { DATABASE_URL: databaseUrl.toString() } : {}),
      WARDEN_DATA_DIR: dataDir,
      ...(this.options.withoutRedis
        ? {}
        : {
            REDIS_URL: this.redis?.url ?? REDIS_URL,
            [REDIS_PREFIX_SETTING]: this.prefix,
            WARDEN_INSTANCE_ID: instanceId,
          }),
      WARDEN_PROBE_PRIVATE_TARGETS: 'allow',
      LOG_LEVEL: this.options.logLevel ?? 'info',
      ...this.options.env,
    };
  }

  member(id: string): ServerProcess {
    const member = this.members.get(id);
    if (!member) throw new Error(`instance ${id} is not running`);
    return member;
  }

  running(id: string): boolean {
    return this.members.has(id);
  }

  url(id: string): string {
    return this.member(id).url;
  }

  async startMember(id: string): Promise<ServerProcess> {
    if (this.members.has(id)) throw new Error(`instance ${id} is already running`);
    const member = await startServer([], this.env(id));
    this.members.set(id, member);
    this.startedAt.set(id, Date.now());
    return member;
  }

  /** Stops a process with a signal (SIGTERM: an orderly shutdown that hands its leases back); resolves with its exit. */
  async stopMember(
    id: string,
    signal: NodeJS.Signals = 'SIGTERM',
  ): Promise<{ code: number | null; ms: number; log: string }> {
    const member = this.member(id);
    this.members.delete(id);
    const exit = await member.stop(signal);
    return { ...exit, log: member.log() };
  }

  /** kill -9: no shutdown, no lease released; resolves once the process is gone. */
  async kill(id: string): Promise<number> {
    const member = this.member(id);
    this.members.delete(id);
    const at = Date.now();
    this.killedAt.set(id, at);
    await member.stop('SIGKILL');
    return at;
  }

  /** Runs a query on the cluster's schema (tests read checks and leases; the processes never see this connection). */
  async query<R extends pg.QueryResultRow>(text: string, values: unknown[] = []): Promise<R[]> {
    return (await this.pool.query<R>(text, values)).rows;
  }

  /**
   * Each monitor's check times (ascending), for the given monitors or all: the checks table and the journal not folded
   * yet (docs/storage.md), read in one statement, so a fold moving rows meanwhile neither hides nor doubles them.
   */
  async checkTimes(monitorIds?: readonly string[], source = 'edge'): Promise<Map<string, number[]>> {
    const where = monitorIds ? 'source = $1 and monitor_id = any($2)' : 'source = $1';
    const rows = await this.query<{ monitor_id: string; checked_at: string }>(
      `select monitor_id, checked_at from checks where ${where}
       union all select monitor_id, checked_at from check_journal where ${where}
       order by monitor_id, checked_at`,
      monitorIds ? [source, monitorIds] : [source],
    );
    const times = new Map<string, number[]>((monitorIds ?? []).map((id) => [id, []]));
    for (const row of rows) {
      const list = times.get(row.monitor_id) ?? [];
      if (list.length === 0) times.set(row.monitor_id, list);
      list.push(Number(row.checked_at));
    }
    return times;
  }

  /** The leases as PostgreSQL holds them: name, holder, expiry. */
  leases(): Promise<{ name: string; holder: string | null; expires_at: string }[]> {
    return this.query('select name, holder, expires_at from cluster_leases order by name');
  }

  /** The numbers of the shards `holder` holds by a lease not yet expired. */
  async shardsHeldBy(holder: string): Promise<Set<number>> {
    const now = Date.now();
    return new Set(
      (await this.leases())
        .filter((l) => l.holder === holder && Number(l.expires_at) > now && l.name.startsWith('shard:'))
        .map((l) => Number(l.name.slice('shard:'.length))),
    );
  }

  /** Whether every shard is held by one of `instances` (the running ones by default), each holding its fair share. */
  async balanced(instances: string[] = [...this.members.keys()]): Promise<boolean> {
    return sharesBalanced(await this.leases(), instances);
  }

  /** Stops every process (SIGKILL: the schema goes away next), the proxy, and drops the schema. */
  async close(): Promise<void> {
    await Promise.all([...this.members.values()].map((m) => m.stop('SIGKILL').catch(() => {})));
    this.members.clear();
    await this.redis?.close();
    for (const proxy of this.postgresProxies.values()) await proxy.close();
    await this.pool.end().catch(() => {});
    await this.opened.cleanup().catch(() => {});
    await deleteRedisKeys(this.prefix).catch(() => {});
    for (const dir of this.dataDirs.values()) rmSync(dir, { recursive: true, force: true });
  }
}

/** Every shard held by one of `instances`, each holding its fair share give or take the rounding (with three: 86, 86, 84). */
export function sharesBalanced(leases: { name: string; holder: string | null }[], instances: string[]): boolean {
  const counts = new Map(instances.map((id) => [id, 0]));
  for (const lease of leases)
    if (lease.name.startsWith('shard:') && lease.holder && counts.has(lease.holder))
      counts.set(lease.holder, (counts.get(lease.holder) ?? 0) + 1);
  const share = Math.ceil(SHARD_COUNT / instances.length);
  return instances.length > 0 && [...counts.values()].every((n) => n >= SHARD_COUNT - share * (instances.length - 1));
}

/** Removes what a cluster left in Redis under its prefix (rate-limit counters and the like). */
async function deleteRedisKeys(prefix: string): Promise<void> {
  const client = new Redis(REDIS_URL, { lazyConnect: true, maxRetriesPerRequest: 1 });
  client.on('error', () => {});
  try {
    await client.connect();
    let cursor = '0';
    do {
      const [next, keys] = await client.scan(cursor, 'MATCH', `${prefix}:*`, 'COUNT', 1000);
      cursor = next;
      if (keys.length > 0) await client.del(...keys);
    } while (cursor !== '0');
  } finally {
    client.disconnect();
  }
}

// ---- "checked exactly once" -------------------------------------------------------------------------------------------

export { type CadenceOptions, type CadenceReport, cadence, describeCadence } from './cluster-cadence.js';

export { sleep, until } from './until.js';
