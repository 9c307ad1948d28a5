// Cluster mode on this machine: three `warden serve` processes on PostgreSQL and Redis running 10,000 TCP monitors every
// 30 s (checks per second, lateness, duplicates, the gap a kill -9 leaves), then push and relay ingest per second on
// PostgreSQL — one process, and three behind the same Redis — beside the same load on SQLite.
// First, as in src/main.ts: it extends zod with .openapi(), before the modules below create their schemas.
import '@hono/zod-openapi';

import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { DAY_MS } from '../src/domain/check.js';
import { shardOf } from '../src/domain/cluster.js';
import {
  Cluster,
  cadence,
  clusterAvailable,
  describeCadence,
  REDIS_URL,
  startTcpTargets,
} from '../test/cluster-harness.js';
import { seed } from '../test/seed.js';
import { countChecks } from './count-checks.js';
import { formatLoad, type LoadResult, load, median } from './load.js';
import { cpuOfCommand, machineBusySeconds } from './loadgen-probes.js';
import { processUsage, startBaselineProcess, startWardenProcess } from './processes.js';
import { PUSH_BENCH_TOKENS, pushBenchConfig, pushRequests } from './push.bench.js';
import { RELAY_BENCH_BATCH, relayBatches, relayBenchConfig, relayBenchToken } from './relay.bench.js';
import type { Benchmark } from './run.js';

const MONITORS = Number(process.env.BENCH_CLUSTER_MONITORS ?? 10_000);
const INTERVAL_SEC = 30;
const INTERVAL_MS = INTERVAL_SEC * 1000;
/** Steady state measured before the kill -9, and again after the restarted process has its share back. */
const STEADY_SEC = Number(process.env.BENCH_CLUSTER_STEADY_SECONDS ?? 90);
const FAILOVER_TARGET_MS = 30_000;
const LATENESS_TARGET_MS = 1000;
const INGEST_SECONDS = Number(process.env.BENCH_CLUSTER_INGEST_SECONDS ?? 6);
/** Days of checks PostgreSQL keeps before today's, each a partition (the default retention: 30 days). */
const DAYS_KEPT = Number(process.env.BENCH_CLUSTER_DAYS_KEPT ?? 30);
// BENCH_CLUSTER_PARTS=checks or =ingest runs one half; BENCH_CLUSTER_INGEST=push measures heartbeats alone (a second of
// relay batches), BENCH_CLUSTER_INGEST_SECONDS sets each ingest window (6 s), BENCH_CLUSTER_SOLO=1 leaves out the
// three processes, BENCH_CLUSTER_DAYS_KEPT the days of partitions the ingest's database has before today's (30),
// BENCH_CLUSTER_ROUNDS the rounds in which every configuration is measured in turn (3; the medians are judged).
const INSTANCES = ['a', 'b', 'c'];
/**
 * Relays of the ingest config, one per process of the cluster. The relay window sends one relay's batches, eight or nine
 * at once, over every process: each batch carries the same 200 monitors, so three processes' commits wait on each
 * other's row locks. A relay sends one batch at a time (src/relay/delivery.ts); the spread window sends the batches of
 * this many relays, three at once each, each relay to one process (all to the one process of the other setups).
 */
const SPREAD_RELAYS = INSTANCES.length;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export const benchmark: Benchmark = {
  name: 'cluster',
  description: `3 processes on PostgreSQL + Redis: ${MONITORS} TCP monitors every ${INTERVAL_SEC} s, ${STEADY_SEC} s steady, a kill -9 and a restart, ${STEADY_SEC} s steady; push and relay ingest on PostgreSQL vs SQLite`,
  async run() {
    if (!clusterAvailable) {
      console.log(
        'PostgreSQL or Redis is not reachable: the cluster benchmark needs both (see test/cluster-harness.ts)',
      );
      return false;
    }
    const parts = (process.env.BENCH_CLUSTER_PARTS ?? 'checks,ingest').split(',');
    const checks = parts.includes('checks') ? await checksAtScale() : true;
    const ingest = parts.includes('ingest') ? await ingestFigures() : true;
    return checks && ingest;
  },
};

interface RunnerSummary {
  checks: number;
  lateP50Ms: number;
  lateP99Ms: number;
  lateMaxMs: number;
}

/** The runner's reports in a process's log: the minute ones and the summary at stop. */
function runnerReports(log: string): RunnerSummary[] {
  return log
    .split('\n')
    .filter(
      (line) => line.includes('"edge runner: checks in the last minute"') || line.includes('"edge runner stopped"'),
    )
    .map((line) => JSON.parse(line) as RunnerSummary);
}

async function checksAtScale(): Promise<boolean> {
  const targets = await startTcpTargets(8);
  const lines = ['organization: { key: bench, name: Bench }', 'monitors:'];
  for (let i = 0; i < MONITORS; i++)
    lines.push(
      `  - { key: m${i}, name: Monitor ${i}, type: tcp, intervalSec: ${INTERVAL_SEC}, timeoutMs: 5000, config: { host: 127.0.0.1, port: ${targets.ports[i % targets.ports.length]} } }`,
    );
  const seededAt = Date.now();
  let ids: string[] = [];
  const cluster = await Cluster.start({
    instances: INSTANCES,
    seed: async (store) => {
      ids = Object.values((await seed(store, lines.join('\n'), Date.now())).monitors).map((m) => m.id);
    },
  });
  const logs: string[] = [];
  try {
    const started = Date.now();
    console.log(
      `${MONITORS} monitors stored and three processes started in ${((started - seededAt) / 1000).toFixed(1)} s`,
    );
    // The window opens once the shards are shared out (at a cold start they move 16 a round).
    for (const deadline = started + 120_000; !(await cluster.balanced()) && Date.now() < deadline; ) await sleep(250);
    const t0 = Date.now();
    console.log(`shards shared out ${((t0 - started) / 1000).toFixed(1)} s after the start`);
    await sleep(STEADY_SEC * 1000);

    // kill -9 of b: which monitors it held, how soon each ran again elsewhere.
    const shards = await cluster.shardsHeldBy('b');
    const held = ids.filter((id) => shards.has(shardOf(id)));
    const killedLog = cluster.member('b').log();
    const killedAt = await cluster.kill('b');
    logs.push(killedLog);
    // Each monitor of b: its last check before the kill (L) and first after (F). A monitor is due again at L + interval
    // whoever runs it: the failover's cost is how much later than that it ran (F − L − interval).
    let resumedMs = Number.POSITIVE_INFINITY;
    let worstGapMs = 0;
    let worstLateMs = 0;
    for (const deadline = killedAt + 120_000; Date.now() < deadline; ) {
      await sleep(1000);
      const times = await cluster.checkTimes(held);
      const pairs = held.map((id) => {
        const list = times.get(id) ?? [];
        const next = list.findIndex((t) => t > killedAt);
        return next < 0 ? null : { last: list[next - 1] ?? null, first: list[next] as number };
      });
      if (pairs.every((p) => p !== null)) {
        const resumed = pairs as { last: number | null; first: number }[];
        resumedMs = Math.max(...resumed.map((p) => p.first)) - killedAt;
        worstGapMs = Math.max(...resumed.map((p) => (p.last === null ? 0 : p.first - p.last)));
        worstLateMs = Math.max(...resumed.map((p) => (p.last === null ? 0 : p.first - p.last - INTERVAL_MS)));
        break;
      }
    }
    await sleep(Math.max(0, killedAt + 45_000 - Date.now()));
    await cluster.startMember('b');
    const restartedAt = Date.now();
    for (const deadline = restartedAt + 120_000; !(await cluster.balanced()) && Date.now() < deadline; )
      await sleep(250);
    const settledAgainMs = Date.now() - restartedAt;
    await sleep(STEADY_SEC * 1000);

    // An orderly stop, so each runner logs its summary; the window closes before the first one stops.
    const to = Date.now() - 1000;
    for (const id of INSTANCES) logs.push((await cluster.stopMember(id)).log);
    const times = await cluster.checkTimes(ids);
    const report = cadence(times, {
      intervalMs: INTERVAL_MS,
      from: t0,
      to,
      firstBy: t0 + INTERVAL_MS + 2000,
      excused: [{ from: killedAt - INTERVAL_MS, to: killedAt + FAILOVER_TARGET_MS, monitors: new Set(held) }],
    });
    const steady = [...times.values()].reduce((n, list) => n + list.filter((t) => t >= t0 && t < killedAt).length, 0);
    const steadyPerSec = steady / ((killedAt - t0) / 1000);
    const reports = logs.flatMap(runnerReports);
    const p99s = reports.map((r) => r.lateP99Ms).sort((a, b) => a - b);
    const worstP99 = p99s.at(-1) ?? 0;

    console.log(describeCadence(report));
    console.log(
      `checks: ${Math.round(steadyPerSec)} per second with three processes (due: ${Math.round(MONITORS / INTERVAL_SEC)}/s), ${report.checks} over ${Math.round((to - t0) / 1000)} s`,
    );
    console.log(
      `lateness p99 per runner report (a minute, or a process's life at stop): median ${p99s[Math.floor(p99s.length / 2)] ?? 0} ms, worst ${worstP99} ms, max ${Math.max(0, ...reports.map((r) => r.lateMaxMs))} ms (target p99 < ${LATENESS_TARGET_MS} ms)`,
    );
    console.log(
      `duplicates: ${report.duplicates.length} (target 0); missed intervals outside the failover: ${report.missed.length} (target 0)`,
    );
    console.log(
      `kill -9 of b (${held.length} monitors, ${shards.size} shards): failover gap ${(worstLateMs / 1000).toFixed(1)} s at most (a check that late past its due time; target < ${FAILOVER_TARGET_MS / 1000} s); all checked again ${(resumedMs / 1000).toFixed(1)} s after the kill; longest time between two checks ${(worstGapMs / 1000).toFixed(1)} s; restarted at +${Math.round((restartedAt - killedAt) / 1000)} s, its share back ${(settledAgainMs / 1000).toFixed(1)} s later`,
    );
    return (
      report.duplicates.length === 0 &&
      report.missed.length === 0 &&
      worstLateMs < FAILOVER_TARGET_MS &&
      worstP99 < LATENESS_TARGET_MS
    );
  } finally {
    await cluster.close();
    await targets.close();
  }
}

interface IngestRun {
  label: string;
  push: LoadResult;
  /** Milliseconds of CPU of the Warden processes, summed, per heartbeat stored in the measured window (-1: not counted). */
  pushCpuMsPerResult: number;
  /** PostgreSQL's CPU and the whole machine's busy time (every core) per stored heartbeat, in ms (-1: not counted). */
  pushPostgresMsPerResult: number;
  pushMachineMsPerResult: number;
  /** Heartbeats per ingest commit in the measured window, over the processes (from their /metrics). */
  pushMeanBatch: number;
  /** How long an ingest commit took, on average, in ms. */
  pushMeanCommitMs: number;
  /** The processes' garbage collection per stored heartbeat: ms of pauses, and young-generation collections per 1,000. */
  pushGcMsPerResult: number;
  pushScavengesPerThousand: number;
  /** Redis commands per stored heartbeat, by command (a script's own commands counted as well as the script). */
  pushRedisPerResult: Map<string, number>;
  relayResultsPerSec: number;
  relay: LoadResult;
  /** Relay results of SPREAD_RELAYS relays, each relay's batches to one process. */
  spreadResultsPerSec: number;
  spread: LoadResult;
  /** ms of CPU per relay result answered: Warden's processes summed, PostgreSQL's, the whole machine's (-1: not counted). */
  relayCpu: { warden: number; postgres: number; machine: number };
}

/** Redis commands per stored heartbeat, for a configuration that sent any: the total and the five most called. */
function redisText(perResult: Map<string, number>): string {
  if (perResult.size === 0) return '';
  const total = [...perResult.values()].reduce((a, b) => a + b, 0);
  const top = [...perResult].slice(0, 5).map(([command, n]) => `${command} ${n.toFixed(3)}`);
  return `; Redis ${total.toFixed(2)} commands (${top.join(', ')})`;
}

/** Several autocannon runs at once, one per URL, the connections split between them: the figures summed. */
async function loadAcross(urls: string[], options: Omit<Parameters<typeof load>[0], 'url'>): Promise<LoadResult> {
  const connections = Math.max(1, Math.round((options.connections ?? 50) / urls.length));
  return sumLoads(await Promise.all(urls.map((url) => load({ ...options, url, connections }))));
}

/** Load runs made at once, their figures summed (their latencies the worst of them). */
function sumLoads(runs: LoadResult[]): LoadResult {
  const sum = (pick: (r: LoadResult) => number) => runs.reduce((n, r) => n + pick(r), 0);
  return {
    requestsPerSec: sum((r) => r.requestsPerSec),
    p50Ms: Math.max(...runs.map((r) => r.p50Ms)),
    p99Ms: Math.max(...runs.map((r) => r.p99Ms)),
    total: sum((r) => r.total),
    errors: sum((r) => r.errors),
    non2xx: sum((r) => r.non2xx),
  };
}

/** What the CPU of a run is divided by: the processes measured, and how many heartbeats are stored so far. */
interface CpuAccount {
  pids: number[];
  stored(): Promise<number>;
}

/** The processes' bearer token for /metrics (each is started with it). */
const METRICS_TOKEN = 'cluster-bench-metrics';

/** Results committed and ingest commits so far, summed over the processes. */
async function commits(
  urls: string[],
): Promise<{ results: number; commits: number; commitSeconds: number; gcSeconds: number; scavenges: number }> {
  const total = { results: 0, commits: 0, commitSeconds: 0, gcSeconds: 0, scavenges: 0 };
  for (const url of urls) {
    const text = await (
      await fetch(`${url}/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } })
    ).text();
    const value = (name: string) => Number(new RegExp(`^${name} (\\S+)$`, 'm').exec(text)?.[1] ?? 0);
    total.results += value('warden_ingest_batch_size_sum');
    total.commits += value('warden_ingest_batch_size_count');
    total.commitSeconds += value('warden_ingest_commit_duration_seconds_sum');
    for (const [, stat, kind, figure] of text.matchAll(
      /^nodejs_gc_duration_seconds_(sum|count)\{kind="([a-z]+)"\} (\S+)$/gm,
    ))
      if (stat === 'sum') total.gcSeconds += Number(figure);
      else if (kind === 'minor') total.scavenges += Number(figure);
  }
  return total;
}

const cpuOf = (pids: number[]) => pids.reduce((sum, pid) => sum + processUsage(pid).cpuSeconds, 0);

let commandsClient: Redis | undefined;
/** Calls of each command Redis has answered since it started (INFO commandstats): the whole server's. */
async function redisCommands(): Promise<Map<string, number>> {
  commandsClient ??= new Redis(REDIS_URL, { maxRetriesPerRequest: 1 });
  const calls = new Map<string, number>();
  for (const line of (await commandsClient.info('commandstats')).split('\n')) {
    const found = /^cmdstat_([^:]+):calls=(\d+)/.exec(line);
    if (found) calls.set(found[1] as string, Number(found[2]));
  }
  return calls;
}

/** Heartbeats (GET, 50 connections) then relay batches (8 at once) against the given processes, both from the push and relay benchmarks. */
async function measureIngest(
  label: string,
  urls: string[],
  relayIds: string[][],
  account: CpuAccount | null,
): Promise<IngestRun> {
  await loadAcross(urls, { connections: 50, durationSec: 2, setupRequest: pushRequests('GET') });
  const cpuNow = () => ({
    warden: account ? cpuOf(account.pids) : 0,
    postgres: account ? cpuOfCommand('postgres') : 0,
    machine: machineBusySeconds(),
  });
  const redisBefore = await redisCommands();
  const [before, storedBefore, batchesBefore] = [cpuNow(), account ? await account.stored() : 0, await commits(urls)];
  const push = await loadAcross(urls, {
    connections: 50,
    durationSec: INGEST_SECONDS,
    setupRequest: pushRequests('GET'),
  });
  const after = cpuNow();
  const redisAfter = await redisCommands();
  const batchesAfter = await commits(urls);
  const pushMeanBatch =
    (batchesAfter.results - batchesBefore.results) / Math.max(1, batchesAfter.commits - batchesBefore.commits);
  const stored = account ? Math.max(1, (await account.stored()) - storedBefore) : 0;
  const perResult = (seconds: number) => (account ? (seconds * 1000) / stored : -1);
  const pushMeanCommitMs =
    ((batchesAfter.commitSeconds - batchesBefore.commitSeconds) * 1000) /
    Math.max(1, batchesAfter.commits - batchesBefore.commits);
  const pushGcMsPerResult = perResult(batchesAfter.gcSeconds - batchesBefore.gcSeconds);
  const pushScavengesPerThousand = account ? ((batchesAfter.scavenges - batchesBefore.scavenges) * 1000) / stored : -1;
  const pushRedisPerResult = new Map(
    [...redisAfter]
      .map(([command, calls]) => [command, (calls - (redisBefore.get(command) ?? 0)) / Math.max(1, stored)] as const)
      // Other configurations, idle meanwhile, still renew leases and poll: a few commands a second, not per heartbeat.
      .filter(([command, perResult]) => perResult >= 0.005 && command !== 'info')
      .sort((a, b) => b[1] - a[1]),
  );
  const pushCpuMsPerResult = perResult(after.warden - before.warden);
  const pushPostgresMsPerResult = perResult(after.postgres - before.postgres);
  const pushMachineMsPerResult = perResult(after.machine - before.machine);
  const relayBefore = cpuNow();
  const relay = await loadAcross(urls, {
    connections: urls.length > 1 ? 9 : 8,
    // BENCH_CLUSTER_INGEST=push: heartbeats alone (a second of relay batches), to profile or tally them.
    durationSec: process.env.BENCH_CLUSTER_INGEST === 'push' ? 1 : INGEST_SECONDS,
    setupRequest: relaySubmissions(relayIds, 0),
  });
  const relayAfter = cpuNow();
  // Per relay result answered 200 (each stored by then): the batches' own count, not a count of rows.
  const relayAnswered = Math.max(1, (relay.total - relay.non2xx - relay.errors) * RELAY_BENCH_BATCH);
  const perRelayResult = (seconds: number) => (account ? (seconds * 1000) / relayAnswered : -1);
  const relayCpu = {
    warden: perRelayResult(relayAfter.warden - relayBefore.warden),
    postgres: perRelayResult(relayAfter.postgres - relayBefore.postgres),
    machine: perRelayResult(relayAfter.machine - relayBefore.machine),
  };
  const spreadRuns = await Promise.all(
    relayIds.map((_, n) =>
      load({
        url: urls[n % urls.length] as string,
        connections: 3,
        durationSec: process.env.BENCH_CLUSTER_INGEST === 'push' ? 1 : INGEST_SECONDS,
        setupRequest: relaySubmissions(relayIds, n),
      }),
    ),
  );
  const spread = sumLoads(spreadRuns);
  return {
    label,
    push,
    pushCpuMsPerResult,
    pushPostgresMsPerResult,
    pushMachineMsPerResult,
    pushMeanBatch,
    pushMeanCommitMs,
    pushGcMsPerResult,
    pushScavengesPerThousand,
    pushRedisPerResult,
    relay,
    relayResultsPerSec: relay.requestsPerSec * RELAY_BENCH_BATCH,
    relayCpu,
    spread,
    spreadResultsPerSec: spread.requestsPerSec * RELAY_BENCH_BATCH,
  };
}

/**
 * Every token pinged, and every relay monitor given a result, at each process before anything is measured: a cluster
 * that has run for a while knows its tokens and keeps its monitors' states. Without it the three processes' short
 * run (a third of the load each) would be measured mostly cold — a token looked up, a state read — and one process's
 * mostly warm.
 */
async function warmUp(urls: string[], relayIds: string[][]): Promise<void> {
  // The first process twice: its first round moves every monitor from pending (the locking path, which forgets the
  // states it moved), so only its second round leaves it keeping them, as the other processes do after their one.
  for (const url of [urls[0] as string, ...urls]) {
    await load({ url, connections: 16, amount: PUSH_BENCH_TOKENS, setupRequest: pushRequests('GET') });
    for (const [n, ids] of relayIds.entries())
      await load({
        url,
        connections: 1,
        amount: Math.ceil(ids.length / RELAY_BENCH_BATCH),
        setupRequest: relaySubmissions(relayIds, n),
      });
  }
}

const relayHeaders = (n: number) => ({
  authorization: `Bearer ${relayBenchToken(n)}`,
  'content-type': 'application/json',
});

/** Builds each request of a load run: the `n`-th relay submitting a new batch over its monitors. */
function relaySubmissions(relayIds: string[][], n: number) {
  const batch = relayBatches(relayIds[n] as string[]);
  const headers = relayHeaders(n);
  return (request: object) => ({ ...request, method: 'POST', path: '/api/relay/results', headers, body: batch() });
}

/** The monitor ids of each relay of the ingest config, in order. */
async function relayIdsOf(url: string): Promise<string[][]> {
  const ids: string[][] = [];
  for (let n = 0; n < SPREAD_RELAYS; n++) {
    const res = await fetch(`${url}/api/relay/config`, { headers: { authorization: relayHeaders(n).authorization } });
    ids.push(((await res.json()) as { monitors: { id: string }[] }).monitors.map((m) => m.id));
  }
  return ids;
}

/** Both benchmarks' organizations in one file: the heartbeat monitors and the relay with its monitors. */
function ingestConfig(): string {
  // The relay file (organization, relays, monitors), then the heartbeat file's monitors (past its organization and `monitors:`).
  return [...relayBenchConfig(SPREAD_RELAYS - 1).split('\n'), ...pushBenchConfig().split('\n').slice(2)].join('\n');
}

/** A configuration of the ingest half, started once and measured in every round. */
interface IngestSetup {
  label: string;
  urls: string[];
  relayIds: string[][];
  account: CpuAccount;
  /** Heartbeats and relay results stored so far (SQLite's counted together, as `push`). */
  stored(): Promise<{ push: number; relay: number }>;
  stop(): Promise<void>;
}

/**
 * Rounds of the ingest half (BENCH_CLUSTER_ROUNDS, 3): every configuration is started once, then measured in turn
 * within each round, and each figure is compared with SQLite's of the same round. This machine is shared: a single
 * window of each, a minute apart, put one process on PostgreSQL at 0.47 to 0.81 of SQLite's heartbeats in runs an
 * hour apart, moved by whatever else ran meanwhile; the medians of ratios taken a few seconds apart move far less.
 */
const ROUNDS = Math.max(1, Number(process.env.BENCH_CLUSTER_ROUNDS ?? 3));
/** Issue 38's targets: PostgreSQL's ingest against bare node:http's and SQLite's, and three processes against one. */
const POSTGRES_BARE_TARGET = 0.2;
const POSTGRES_SHARE_TARGET = 0.8;
const THREE_VS_ONE_TARGET = 1;
const THREE_CPU_TARGET = 1.3;

async function startSqliteSetup(): Promise<IngestSetup> {
  const dir = mkdtempSync(join(tmpdir(), 'warden-bench-cluster-ingest-'));
  writeFileSync(join(dir, 'warden.yaml'), ingestConfig());
  const server = await startWardenProcess({
    WARDEN_CONFIG: join(dir, 'warden.yaml'),
    WARDEN_METRICS_TOKEN: METRICS_TOKEN,
  });
  return {
    label: 'SQLite, 1 process',
    urls: [server.url],
    relayIds: await relayIdsOf(server.url),
    account: { pids: [server.process.pid as number], stored: () => countChecks(server.dataDir) },
    stored: async () => ({ push: await countChecks(server.dataDir), relay: 0 }),
    async stop() {
      await server.stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

async function startPostgresSetup(label: string, instances: string[], withoutRedis: boolean): Promise<IngestSetup> {
  const cluster = await Cluster.start({
    instances,
    withoutRedis,
    env: { WARDEN_METRICS_TOKEN: METRICS_TOKEN },
    seed: async (store) => {
      await seed(store, ingestConfig(), Date.now());
      // A partition of `checks` for each of those days, as a database running that long has: a plan reading
      // `checks` opens every one (time-partitions.ts makes today's and the next few on its own).
      await store.timePartitions?.prepare(Date.now() - DAYS_KEPT * DAY_MS, DAYS_KEPT, { checks: 0, buckets: 0 });
    },
  });
  const urls = instances.map((id) => cluster.url(id));
  const count = async (source: string) =>
    Number(
      (
        await cluster.query<{ n: string }>(
          // The journal holds what the last second committed (docs/storage.md): one statement counts both.
          'select (select count(*) from checks where source = $1) + (select count(*) from check_journal where source = $1) as n',
          [source],
        )
      )[0]?.n,
    );
  return {
    label,
    urls,
    relayIds: await relayIdsOf(urls[0] as string),
    account: { pids: instances.map((id) => cluster.member(id).child.pid as number), stored: () => count('push') },
    stored: async () => ({ push: await count('push'), relay: await count('relay') }),
    async stop() {
      try {
        // An orderly stop: a process profiled (WARDEN_BENCH_NODE_ARGS=--cpu-prof) writes its profile as it exits.
        for (const id of instances) await cluster.stopMember(id);
      } finally {
        await cluster.close();
      }
    },
  };
}

async function ingestFigures(): Promise<boolean> {
  const setups: IngestSetup[] = [];
  const runs: IngestRun[][] = [];
  /** Bare node:http answering a heartbeat's bytes, 50 connections, in each round: the push bench's baseline. */
  const bare: number[] = [];
  let baseline: Awaited<ReturnType<typeof startBaselineProcess>> | undefined;
  try {
    // SQLite: one process, as the push and relay benchmarks run it; PostgreSQL: one process without Redis, then
    // three in cluster mode with the load spread over them. All of them stay up; only the one measured has load.
    setups.push(await startSqliteSetup());
    setups.push(await startPostgresSetup('PostgreSQL, 1 process', ['solo'], true));
    if (process.env.BENCH_CLUSTER_SOLO !== '1')
      setups.push(await startPostgresSetup('PostgreSQL + Redis, 3 processes', INSTANCES, false));
    for (const setup of setups) await warmUp(setup.urls, setup.relayIds);
    const sqliteUrl = (setups[0] as IngestSetup).urls[0] as string;
    const answer = await fetch(`${sqliteUrl}${pushRequests('GET')({}).path}`);
    baseline = await startBaselineProcess(Buffer.from(await answer.arrayBuffer()), {
      'content-type': 'application/json',
      'cache-control': 'no-store',
    });
    await load({ url: baseline.url, connections: 50, durationSec: 2 });
    for (let round = 0; round < ROUNDS; round++) {
      bare.push((await load({ url: baseline.url, connections: 50, durationSec: INGEST_SECONDS })).requestsPerSec);
      const measured: IngestRun[] = [];
      for (const setup of setups)
        measured.push(await measureIngest(setup.label, setup.urls, setup.relayIds, setup.account));
      runs.push(measured);
      const sqlite = measured[0] as IngestRun;
      console.log(
        `round ${round + 1}: bare node:http ${Math.round(bare[round] as number)} answers/s; ${measured.map((r) => `${r.label} ${Math.round(r.push.requestsPerSec)} heartbeats/s (${(r.push.requestsPerSec / sqlite.push.requestsPerSec).toFixed(2)}), ${Math.round(r.relayResultsPerSec)} relay results/s (${(r.relayResultsPerSec / sqlite.relayResultsPerSec).toFixed(2)}), ${Math.round(r.spreadResultsPerSec)} from ${SPREAD_RELAYS} relays (${(r.spreadResultsPerSec / sqlite.spreadResultsPerSec).toFixed(2)})`).join('; ')}`,
      );
    }
    const last = runs[runs.length - 1] as IngestRun[];
    for (const run of last) {
      console.log(formatLoad(`${run.label}: push GET (last round)`, run.push));
      console.log(formatLoad(`${run.label}: relay batches of ${RELAY_BENCH_BATCH} (last round)`, run.relay));
      console.log(formatLoad(`${run.label}: ${SPREAD_RELAYS} relays' batches (last round)`, run.spread));
    }
    for (const run of last.filter((r) => r.pushPostgresMsPerResult >= 0))
      console.log(
        `${run.label.padEnd(34)} ${run.pushMeanBatch.toFixed(1)} heartbeats per commit of ${run.pushMeanCommitMs.toFixed(2)} ms; per stored heartbeat: PostgreSQL ${run.pushPostgresMsPerResult.toFixed(3)} ms of CPU, the whole machine ${run.pushMachineMsPerResult.toFixed(3)} ms busy (Warden, PostgreSQL, Redis, the load generator); Warden's garbage collection ${run.pushGcMsPerResult.toFixed(3)} ms, ${run.pushScavengesPerThousand.toFixed(2)} young collections per 1,000${redisText(run.pushRedisPerResult)}`,
      );
    for (const run of last.filter((r) => r.relayCpu.warden >= 0))
      console.log(
        `${run.label.padEnd(34)} per relay result: Warden ${run.relayCpu.warden.toFixed(4)} ms of CPU, PostgreSQL ${run.relayCpu.postgres.toFixed(4)} ms, the whole machine ${run.relayCpu.machine.toFixed(4)} ms busy`,
      );
    // Medians over the rounds of each figure's ratio to its baseline in the same round.
    const share = (i: number, pick: (r: IngestRun) => number, base = 0) =>
      median(runs.map((round) => pick(round[i] as IngestRun) / pick(round[base] as IngestRun)));
    const heartbeats = (r: IngestRun) => r.push.requestsPerSec;
    const relayResults = (r: IngestRun) => r.relayResultsPerSec;
    const spreadResults = (r: IngestRun) => r.spreadResultsPerSec;
    const wardenCpu = (r: IngestRun) => r.pushCpuMsPerResult;
    for (const [i, setup] of setups.entries())
      console.log(
        `${setup.label.padEnd(34)} heartbeats median ${Math.round(median(runs.map((r) => heartbeats(r[i] as IngestRun))))}/s (${share(i, heartbeats).toFixed(2)} of SQLite, ${median(runs.map((r) => wardenCpu(r[i] as IngestRun))).toFixed(3)} ms of Warden CPU per stored heartbeat, summed over its processes), relay results ${Math.round(median(runs.map((r) => relayResults(r[i] as IngestRun))))}/s (${share(i, relayResults).toFixed(2)} of SQLite), from ${SPREAD_RELAYS} relays ${Math.round(median(runs.map((r) => spreadResults(r[i] as IngestRun))))}/s (${share(i, spreadResults).toFixed(2)} of SQLite); medians of ${ROUNDS} rounds`,
      );
    let met = true;
    const target = (what: string, value: number, ok: boolean, goal: string) => {
      console.log(`${what}: ${value.toFixed(2)} (target ${goal}) ${ok ? 'met' : 'MISSED'}`);
      met &&= ok;
    };
    const ofBare = (i: number) =>
      median(runs.map((round, r) => heartbeats(round[i] as IngestRun) / (bare[r] as number)));
    console.log(`SQLite, 1 process: heartbeats / bare node:http's: ${ofBare(0).toFixed(3)} (not judged)`);
    const pgBare = ofBare(1);
    target(
      "PostgreSQL, 1 process: heartbeats / bare node:http's",
      pgBare,
      pgBare >= POSTGRES_BARE_TARGET,
      `≥ ${POSTGRES_BARE_TARGET}`,
    );
    const pgHeartbeats = share(1, heartbeats);
    const pgRelay = share(1, relayResults);
    target(
      "PostgreSQL, 1 process: heartbeats / SQLite's",
      pgHeartbeats,
      pgHeartbeats >= POSTGRES_SHARE_TARGET,
      `≥ ${POSTGRES_SHARE_TARGET}`,
    );
    target(
      "PostgreSQL, 1 process: relay results / SQLite's",
      pgRelay,
      pgRelay >= POSTGRES_SHARE_TARGET,
      `≥ ${POSTGRES_SHARE_TARGET}`,
    );
    if (setups.length > 2) {
      const threeRate = share(2, heartbeats, 1);
      const threeRelay = share(2, relayResults, 1);
      const threeSpread = share(2, spreadResults, 1);
      const threeCpu = share(2, wardenCpu, 1);
      target(
        "3 processes: heartbeats / 1 process's",
        threeRate,
        threeRate >= THREE_VS_ONE_TARGET,
        `≥ ${THREE_VS_ONE_TARGET}`,
      );
      // One relay's batches over every process at once: the same rows locked by every commit (SPREAD_RELAYS).
      console.log(
        `3 processes: one relay's results / 1 process's: ${threeRelay.toFixed(2)} (its batches all carry the same monitors; not judged)`,
      );
      target(
        `3 processes: relay results of ${SPREAD_RELAYS} relays / 1 process's`,
        threeSpread,
        threeSpread >= THREE_VS_ONE_TARGET,
        `≥ ${THREE_VS_ONE_TARGET}`,
      );
      target(
        "3 processes: Warden CPU per heartbeat / 1 process's",
        threeCpu,
        threeCpu <= THREE_CPU_TARGET,
        `≤ ${THREE_CPU_TARGET}`,
      );
    }
    // Every answer of 200 came after its commit: the rows stored are at least those answered, over every round.
    let durable = true;
    for (const [i, setup] of setups.entries()) {
      const answered = (pick: (r: IngestRun) => number) =>
        runs.reduce((n, round) => n + pick(round[i] as IngestRun), 0);
      const pushAnswered = answered((r) => r.push.total - r.push.non2xx - r.push.errors);
      const relayAnswered = answered(
        (r) =>
          (r.relay.total - r.relay.non2xx - r.relay.errors + r.spread.total - r.spread.non2xx - r.spread.errors) *
          RELAY_BENCH_BATCH,
      );
      const stored = await setup.stored();
      // SQLite's heartbeats and relay results are counted together.
      const ok =
        i === 0
          ? stored.push >= pushAnswered + relayAnswered
          : stored.push >= pushAnswered && stored.relay >= relayAnswered;
      console.log(
        i === 0
          ? `${setup.label}: ${stored.push} checks stored for ≥ ${pushAnswered + relayAnswered} answered 200`
          : `${setup.label}: ${stored.push} heartbeats stored for ≥ ${pushAnswered} answered 200, ${stored.relay} relay results for ${relayAnswered}`,
      );
      durable &&= ok;
    }
    const clean = runs.flat().every((r) => [r.push, r.relay, r.spread].every((l) => l.errors === 0 && l.non2xx === 0));
    if (!clean) console.log('some requests failed or were not answered 200 (see the load lines above)');
    return durable && clean && met;
  } finally {
    await baseline?.stop();
    for (const setup of setups.reverse()) await setup.stop().catch(() => {});
    commandsClient?.disconnect();
    commandsClient = undefined;
  }
}
