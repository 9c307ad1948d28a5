// What `npm run bench loadgen` seeds (organizations of relays, their monitors, heartbeat monitors and a page each) and
// what it reads before and after its window: Warden's CPU and memory, PostgreSQL's WAL, commits, table sizes and rows,
// the CPU of the PostgreSQL and Redis servers, and Redis's command counts and bytes.
import { readdirSync, readFileSync } from 'node:fs';
import type { Redis } from 'ioredis';
import type { Cluster } from '../test/cluster-harness.js';
import { processUsage } from './processes.js';

export interface Shape {
  relays: number;
  monitorsPerRelay: number;
  push: number;
  intervalSec: number;
  /** Monitors per organization (a config file holds at most 10,000): relays and heartbeats are dealt out over them. */
  perOrganization: number;
}

const relayToken = (r: number) => `wdr_loadgenRelay${String(r).padStart(8, '0')}`;
const pushToken = (p: number) => `wdp_loadgenPush${String(p).padStart(8, '0')}`;
/** Components of each organization's page (its first monitors). */
const PAGE_COMPONENTS = 50;

/** One warden.yaml per organization, with the tokens and page slugs the players use. */
export function organizations(shape: Shape): {
  files: string[];
  relayTokens: string[];
  pushTokens: string[];
  slugs: string[];
} {
  const total = shape.relays * shape.monitorsPerRelay + shape.push;
  const count = Math.max(1, Math.ceil(total / shape.perOrganization));
  const orgs = Array.from({ length: count }, () => ({ relays: [] as number[], push: [] as number[] }));
  for (let r = 0; r < shape.relays; r++) orgs[r % count]?.relays.push(r);
  for (let p = 0; p < shape.push; p++) orgs[p % count]?.push.push(p);
  const files = orgs.map((org, o) => {
    const monitors: string[] = [];
    for (const r of org.relays)
      for (let i = 0; i < shape.monitorsPerRelay; i++)
        monitors.push(
          `  - { key: r${r}m${i}, name: R${r} M${i}, type: tcp, runOn: relay, relay: relay${r}, intervalSec: ${shape.intervalSec}, config: { host: 10.${r >> 8}.${r & 255}.${i & 255}, port: 25565 } }`,
        );
    for (const p of org.push)
      monitors.push(
        `  - { key: hb${p}, name: Heartbeat ${p}, type: heartbeat, pushToken: ${pushToken(p)}, config: { graceSec: 1800 } }`,
      );
    const keys = monitors.slice(0, PAGE_COMPONENTS).map((line) => /key: (\w+)/.exec(line)?.[1] as string);
    return [
      `organization: { key: lg${o}, name: Loadgen ${o} }`,
      `relays: [${org.relays.map((r) => `{ key: relay${r}, name: Relay ${r}, token: ${relayToken(r)} }`).join(', ')}]`,
      'monitors:',
      ...monitors,
      'pages:',
      `  - slug: lg${o}`,
      `    title: Loadgen ${o}`,
      '    components:',
      ...keys.map((key) => `      - { name: ${key}, monitor: ${key} }`),
    ].join('\n');
  });
  return {
    files,
    relayTokens: Array.from({ length: shape.relays }, (_, r) => relayToken(r)),
    pushTokens: Array.from({ length: shape.push }, (_, p) => pushToken(p)),
    slugs: orgs.map((_, o) => `lg${o}`),
  };
}

/**
 * CPU seconds of every process whose command is `name` (the PostgreSQL or Redis server, all its backends), plus what its
 * exited children used (cutime and cstime of the parent: a backend that ended between two readings still counts).
 */
/** CPU seconds of every process running `name` (with the backends that ended, reaped by their server). */
export function cpuOfCommand(name: string): number {
  const found: { pid: string; ppid: string; own: number; children: number }[] = [];
  for (const pid of readdirSync('/proc').filter((d) => /^\d+$/.test(d)))
    try {
      if (readFileSync(`/proc/${pid}/comm`, 'utf8').trim() !== name) continue;
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      // After the command: state, ppid, … utime, stime, cutime, cstime are the 12th to 15th (clock ticks, 100 a second).
      const f = stat
        .slice(stat.lastIndexOf(')') + 2)
        .split(' ')
        .map(Number);
      const own = ((f[11] ?? 0) + (f[12] ?? 0)) / 100;
      found.push({ pid, ppid: String(f[1]), own, children: ((f[13] ?? 0) + (f[14] ?? 0)) / 100 });
    } catch {
      // gone meanwhile
    }
  const ours = new Set(found.map((p) => p.pid));
  // The server's first process (its parent is not one of its kind) reaped the backends that ended: their CPU is its children's.
  return found.reduce((n, p) => n + p.own + (ours.has(p.ppid) ? 0 : p.children), 0);
}

/** The machine's CPU seconds busy (all cores, /proc/stat), to show what else ran beside the figures. */
export function machineBusySeconds(): number {
  // user nice system idle iowait irq softirq steal (guest time is counted in user already)
  const [user, nice, system, , , irq, softirq, steal] = (readFileSync('/proc/stat', 'utf8').split('\n')[0] as string)
    .trim()
    .split(/\s+/)
    .slice(1)
    .map(Number);
  return ((user ?? 0) + (nice ?? 0) + (system ?? 0) + (irq ?? 0) + (softirq ?? 0) + (steal ?? 0)) / 100;
}

export interface Reading {
  at: number;
  /** CPU seconds per Warden process (same order as the cluster's members), and their RSS in bytes. */
  warden: { cpu: number; rss: number }[];
  postgresCpu: number;
  redisCpu: number;
  machineBusy: number;
  /** Results stored by source: checks plus the journal not folded yet. */
  stored: { relay: number; push: number };
  walBytes: number;
  commits: number;
  /** Total size (heap, indexes, TOAST), live rows and rows written (inserted, updated, deleted) of the schema's tables, grouped. */
  tables: Record<string, { bytes: number; rows: number; writes: number }>;
  /** CPU seconds of this process: the players. */
  generatorCpu: number;
  redis: { commands: Record<string, number>; netIn: number; netOut: number } | null;
}

const family = (name: string) =>
  name.startsWith('checks_p') || name === 'checks_default' || name === 'checks'
    ? 'checks'
    : name.startsWith('check_buckets_hourly')
      ? 'hourly'
      : name === 'check_buckets_daily'
        ? 'daily'
        : name === 'check_journal'
          ? 'journal'
          : name === 'monitors'
            ? 'monitors'
            : 'other';

async function redisStats(client: Redis): Promise<NonNullable<Reading['redis']>> {
  const commands: Record<string, number> = {};
  for (const match of (await client.info('commandstats')).matchAll(/cmdstat_([\w|]+):calls=(\d+)/g))
    if (match[1] !== 'info') commands[match[1] as string] = Number(match[2]);
  const stats = await client.info('stats');
  const stat = (name: string) => Number(new RegExp(`${name}:(\\d+)`).exec(stats)?.[1] ?? 0);
  return { commands, netIn: stat('total_net_input_bytes'), netOut: stat('total_net_output_bytes') };
}

/** Reads everything at once (the database figures in one round of queries). */
export async function read(cluster: Cluster, pids: number[], redis: Redis | null): Promise<Reading> {
  const [stored] = await cluster.query<{ relay: string; push: string }>(
    `select (select count(*) from checks where source = 'relay') + (select count(*) from check_journal where source = 'relay') as relay,
            (select count(*) from checks where source = 'push') + (select count(*) from check_journal where source = 'push') as push`,
  );
  // The WAL is the server's and the commits the database's: what else ran shows as the machine's CPU beside ours.
  const [wal] = await cluster.query<{ bytes: string; commits: string }>(
    `select pg_wal_lsn_diff(pg_current_wal_lsn(), '0/0') as bytes,
            (select xact_commit from pg_stat_database where datname = current_database()) as commits`,
  );
  const rows = await cluster.query<{ relname: string; bytes: string; rows: string; writes: string }>(
    `select c.relname, pg_total_relation_size(c.oid) as bytes, coalesce(s.n_live_tup, 0) as rows,
            coalesce(s.n_tup_ins + s.n_tup_upd + s.n_tup_del, 0) as writes
       from pg_class c join pg_namespace n on n.oid = c.relnamespace
       left join pg_stat_user_tables s on s.relid = c.oid
      where n.nspname = $1 and c.relkind = 'r'`,
    [cluster.schema],
  );
  const tables: Reading['tables'] = {};
  for (const row of rows) {
    const t = tables[family(row.relname)] ?? { bytes: 0, rows: 0, writes: 0 };
    tables[family(row.relname)] = {
      bytes: t.bytes + Number(row.bytes),
      rows: t.rows + Number(row.rows),
      writes: t.writes + Number(row.writes),
    };
  }
  const warden = pids.map((pid) => {
    const usage = processUsage(pid);
    return { cpu: usage.cpuSeconds, rss: usage.rss };
  });
  return {
    at: Date.now(),
    warden,
    postgresCpu: cpuOfCommand('postgres'),
    redisCpu: cpuOfCommand('redis-server'),
    machineBusy: machineBusySeconds(),
    stored: { relay: Number(stored?.relay), push: Number(stored?.push) },
    walBytes: Number(wal?.bytes),
    commits: Number(wal?.commits),
    tables,
    generatorCpu: cpuSeconds(process.cpuUsage()),
    redis: redis ? await redisStats(redis) : null,
  };
}

/** Exact row counts of checks and the hourly buckets (n_live_tup is an estimate), for bytes per row at the end. */
export async function exactRows(cluster: Cluster): Promise<{ checks: number; hourly: number; daily: number }> {
  const [row] = await cluster.query<{ checks: string; hourly: string; daily: string }>(
    `select (select count(*) from checks) as checks, (select count(*) from check_buckets_hourly) as hourly,
            (select count(*) from check_buckets_daily) as daily`,
  );
  return { checks: Number(row?.checks), hourly: Number(row?.hourly), daily: Number(row?.daily) };
}

const cpuSeconds = (usage: NodeJS.CpuUsage) => (usage.user + usage.system) / 1e6;
