// Scheduling at scale (issue 38): N monitors every 60 s (100,000 by default) over three `warden serve` processes on
// PostgreSQL and Redis. Reports how late checks started (p50/p99), duplicates and misses (the cadence analysis of the
// stored checks), each process's peak RSS against an idle process's, and how long the shards take to be owned again
// after a kill -9 and after a process joins. WARDEN_BENCH_SCALE_MONITORS and WARDEN_BENCH_SCALE_SECONDS shrink it.
// First, as in src/main.ts: it extends zod with .openapi(), before the modules below create their schemas.
import '@hono/zod-openapi';

import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { LEASE_DEFAULTS, shardLease, shardOf } from '../src/domain/cluster.js';
import { Cluster, cadence, clusterAvailable, describeCadence, startTcpTargets } from '../test/cluster-harness.js';
import { seed } from '../test/seed.js';
import { type CpuSample, cpuBetween, describeCpu, sampleCpu } from './cpu-shares.js';
import { between, describeShare, readAll, sum } from './lateness-segments.js';
import { processUsage, startWardenProcess } from './processes.js';
import type { Benchmark } from './run.js';

const MONITORS = Number(process.env.WARDEN_BENCH_SCALE_MONITORS ?? 100_000);
/** The measured window, from the shards shared out to the orderly stop: a kill -9 at a third, its restart at two. */
const SECONDS = Number(process.env.WARDEN_BENCH_SCALE_SECONDS ?? 600);
const INTERVAL_SEC = 60;
const INTERVAL_MS = INTERVAL_SEC * 1000;
const LATENESS_TARGET_MS = 1000;
const FAILOVER_TARGET_MS = 30_000;
const INSTANCES = ['a', 'b', 'c'];
const METRICS_TOKEN = 'scale-bench-metrics';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export const benchmark: Benchmark = {
  name: 'scale',
  description: `${MONITORS} TCP monitors every ${INTERVAL_SEC} s over 3 processes on PostgreSQL + Redis for ${SECONDS} s: lateness, duplicates and misses, peak RSS, rebalancing after a kill -9 and a join`,
  async run() {
    if (!clusterAvailable) {
      console.log('PostgreSQL or Redis is not reachable: the scale benchmark needs both (see test/cluster-harness.ts)');
      return false;
    }
    return await scale();
  },
};

/** Peak and current resident memory of a process (bytes), from /proc/<pid>/status; zeros once it is gone. */
function memoryOf(pid: number | undefined): { peak: number; now: number } {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const kb = (field: string) => Number(new RegExp(`${field}:\\s+(\\d+) kB`).exec(status)?.[1] ?? 0) * 1024;
    return { peak: kb('VmHWM'), now: kb('VmRSS') };
  } catch {
    return { peak: 0, now: 0 };
  }
}

const mib = (bytes: number) => `${(bytes / 2 ** 20).toFixed(0)} MiB`;

/** The runner's minute reports and its summary at stop, from a process's JSON log. */
function runnerReports(
  log: string,
): { checks: number; lateP50Ms: number; lateP99Ms: number; lateMaxMs: number; waiting: number; time: number }[] {
  return log
    .split('\n')
    .filter((l) => l.includes('"edge runner: checks in the last minute"'))
    .map((l) => JSON.parse(l));
}

/** From a /metrics scrape: checks counted by warden_check_lateness_seconds, and how many started within 1 s and 100 ms. */
/** The idle baseline: one `warden serve` with no monitor (SQLite), its peak RSS after a few seconds. */
async function idlePeak(): Promise<number> {
  const idle = await startWardenProcess({});
  try {
    await sleep(5000);
    return memoryOf(idle.process.pid).peak;
  } finally {
    await idle.stop();
  }
}

/** Polls until `done` holds (or `limitMs` passed); resolves with the time it took, or Infinity. */
async function timeUntil(done: () => Promise<boolean>, limitMs = 180_000, everyMs = 250): Promise<number> {
  const start = Date.now();
  while (Date.now() - start < limitMs) {
    if (await done()) return Date.now() - start;
    await sleep(everyMs);
  }
  return Number.POSITIVE_INFINITY;
}

/** Every shard leased, unexpired, by one of `holders`. */
async function allShardsHeld(cluster: Cluster, holders: string[]): Promise<boolean> {
  const now = Date.now();
  const shards = (await cluster.leases()).filter((l) => l.name.startsWith('shard:'));
  return shards.length > 0 && shards.every((l) => l.holder && holders.includes(l.holder) && Number(l.expires_at) > now);
}

/** A config file caps its monitors at 10,000: one organization (file) per 10,000. */
const PER_FILE = 10_000;

function monitorsYaml(ports: number[], file: number): string {
  const lines = [`organization: { key: bench${file}, name: Bench ${file} }`, 'monitors:'];
  for (let i = file * PER_FILE; i < Math.min(MONITORS, (file + 1) * PER_FILE); i++)
    lines.push(
      `  - { key: m${i}, name: Monitor ${i}, type: tcp, intervalSec: ${INTERVAL_SEC}, timeoutMs: 5000, config: { host: 127.0.0.1, port: ${ports[i % ports.length]} } }`,
    );
  return lines.join('\n');
}

interface KillFigures {
  killedAt: number;
  held: string[];
  shards: number;
  ownedAgainMs: number;
  peak: number;
  log: string;
}

/**
 * kill -9 of b: how soon its shards are leased again. How soon its monitors ran again elsewhere is read from the stored
 * checks at the end (failoverOf): polling them meanwhile (tens of thousands of monitors' checks every 2 s) loaded
 * PostgreSQL and the machine in the very minutes it measures.
 */
async function killOne(cluster: Cluster, ids: string[]): Promise<KillFigures> {
  const shards = await cluster.shardsHeldBy('b');
  const held = ids.filter((id) => shards.has(shardOf(id)));
  const peak = memoryOf(cluster.member('b').child.pid).peak;
  const log = cluster.member('b').log();
  const killedAt = await cluster.kill('b');
  const ownedAgainMs = await timeUntil(() => allShardsHeld(cluster, ['a', 'c']));
  return { killedAt, held, shards: shards.size, ownedAgainMs, peak, log };
}

/** Each of b's monitors: last check before the kill (L), first after (F), due at L + interval whoever runs it. */
function failoverOf(
  kill: KillFigures,
  times: ReadonlyMap<string, number[]>,
): { resumedMs: number; worstLateMs: number; slowest: string } {
  let resumedMs = 0;
  let worstLateMs = 0;
  let slowest = '';
  for (const id of kill.held) {
    const list = times.get(id) ?? [];
    const next = list.findIndex((t) => t > kill.killedAt);
    if (next < 0) return { resumedMs: Number.POSITIVE_INFINITY, worstLateMs: Number.POSITIVE_INFINITY, slowest: id };
    const first = list[next] as number;
    const last = list[next - 1];
    if (first - kill.killedAt > resumedMs) {
      resumedMs = first - kill.killedAt;
      slowest = `${id}: last check ${last === undefined ? 'none' : `${((last - kill.killedAt) / 1000).toFixed(1)} s`}, next ${(resumedMs / 1000).toFixed(1)} s from the kill`;
    }
    if (last !== undefined) worstLateMs = Math.max(worstLateMs, first - last - INTERVAL_MS);
  }
  return { resumedMs, worstLateMs, slowest };
}

/** The Warden processes' pids by instance id, every life of each (b's killed one too). */
function pidsOf(cluster: Cluster, known: Map<number, string>): Map<number, string> {
  for (const id of INSTANCES)
    if (cluster.running(id)) {
      const pid = cluster.member(id).child.pid;
      if (pid) known.set(pid, id);
    }
  return known;
}

async function scale(): Promise<boolean> {
  const idle = await idlePeak();
  const targets = await startTcpTargets(8);
  const seeding = Date.now();
  const ids: string[] = [];
  const cluster = await Cluster.start({
    instances: INSTANCES,
    env: { WARDEN_METRICS_TOKEN: METRICS_TOKEN },
    seed: async (store) => {
      for (let file = 0; file * PER_FILE < MONITORS; file++)
        for (const m of Object.values((await seed(store, monitorsYaml(targets.ports, file), Date.now())).monitors))
          ids.push(m.id);
    },
  });
  try {
    const started = Date.now();
    console.log(
      `${ids.length} monitors stored, three processes started in ${((started - seeding) / 1000).toFixed(1)} s`,
    );
    const spreadMs = await timeUntil(() => cluster.balanced(), 180_000);
    const t0 = Date.now();
    console.log(`cold start: shards shared out ${(spreadMs / 1000).toFixed(1)} s after the processes started`);
    // Each read asks the cluster for the processes running then (the restarted one listens on a new port).
    const read = () =>
      readAll(new Map(INSTANCES.filter((id) => cluster.running(id)).map((id) => [id, cluster.url(id)])), METRICS_TOKEN);
    // The machine's CPU by process, sampled every 30 s and at each read, to tell Warden's load from the rest's.
    const pids = new Map<number, string>();
    const cpuAt = () => {
      pidsOf(cluster, pids);
      return sampleCpu();
    };
    const timeline: CpuSample[] = [cpuAt()];
    const sampler = setInterval(() => timeline.push(cpuAt()), 30_000);
    sampler.unref();
    const atStart = await read();
    const cpuAtStart = cpuAt();

    await sleep(Math.max(0, t0 + (SECONDS * 1000) / 3 - Date.now()));
    const beforeKill = await read();
    const cpuBeforeKill = cpuAt();
    const kill = await killOne(cluster, ids);
    await sleep(Math.max(0, t0 + (SECONDS * 2000) / 3 - Date.now(), kill.killedAt + 45_000 - Date.now()));
    await cluster.startMember('b');
    const joinedAt = Date.now();
    const joinMs = await timeUntil(() => cluster.balanced(INSTANCES));
    // At least one interval after the join settled, so every monitor handed back has been checked by its new holder.
    const settledAt = joinedAt + joinMs + INTERVAL_MS + 5000;
    await sleep(Math.max(0, settledAt - Date.now()));
    const settled = await read();
    const cpuSettled = cpuAt();
    await sleep(Math.max(0, t0 + SECONDS * 1000 - Date.now()));

    const to = Date.now() - 1000;
    const atEnd = await read();
    const cpuAtEnd = cpuAt();
    clearInterval(sampler);
    timeline.push(cpuAtEnd);
    const counts = INSTANCES.map((id) => atEnd.get(id) ?? { total: 0, within1s: 0, within100ms: 0, commitMeanMs: 0 });
    const parts = {
      steadyBefore: between(atStart, beforeKill),
      failover: between(beforeKill, settled, new Set(['b'])),
      steadyAfter: between(settled, atEnd),
    };
    const heldBy = new Map(INSTANCES.map((id) => [id, 0]));
    const holders = new Map((await cluster.leases()).map((l) => [l.name, l.holder]));
    for (const id of ids) {
      const holder = holders.get(shardLease(shardOf(id)));
      if (holder) heldBy.set(holder, (heldBy.get(holder) ?? 0) + 1);
    }
    const memory = INSTANCES.map((id) => {
      const pid = cluster.member(id).child.pid as number;
      return { id, ...memoryOf(pid), cpuSeconds: processUsage(pid).cpuSeconds };
    });
    const logs = [kill.log];
    for (const id of INSTANCES) logs.push((await cluster.stopMember(id)).log);
    // The processes' JSON logs (b's first life, then a, b again and c), kept to look into a late minute or a duplicate.
    const logDir = mkdtempSync(join(tmpdir(), 'warden-scale-'));
    for (const [i, name] of ['b-killed', ...INSTANCES].entries())
      writeFileSync(join(logDir, `${name}.log`), logs[i] ?? '');
    console.log(`the processes' logs: ${logDir}`);
    const times = await cluster.checkTimes(ids);
    const { resumedMs, worstLateMs, slowest } = failoverOf(kill, times);
    const report = cadence(times, {
      intervalMs: INTERVAL_MS,
      from: t0,
      to,
      firstBy: t0 + INTERVAL_MS + 2000,
      excused: [
        { from: kill.killedAt - INTERVAL_MS, to: kill.killedAt + FAILOVER_TARGET_MS, monitors: new Set(kill.held) },
      ],
    });

    const reports = logs.flatMap(runnerReports).filter((r) => r.checks > 0);
    const p50s = reports.map((r) => r.lateP50Ms).sort((a, b) => a - b);
    const p99s = reports.map((r) => r.lateP99Ms).sort((a, b) => a - b);
    const worstP99 = p99s.at(-1) ?? 0;
    console.log(describeCadence(report));
    // A missed interval's monitor: its checks around the gap, in seconds into the window (a first interval's miss
    // shows whether it was checked before the window and by when after it).
    for (const miss of report.missed.slice(0, 5)) {
      const list = times.get(miss.monitorId) ?? [];
      const at = list.findIndex((t) => t >= miss.at);
      const around = list.slice(Math.max(0, at - 2), at + 3).map((t) => ((t - t0) / 1000).toFixed(2));
      console.log(`  missed: ${miss.monitorId} (shard ${shardOf(miss.monitorId)}), checks at ${around.join(', ')} s`);
    }
    console.log(
      `checks: ${report.checks} in ${Math.round((to - t0) / 1000)} s, ${(report.checks / ((to - t0) / 1000)).toFixed(0)}/s (due: ${(MONITORS / INTERVAL_SEC).toFixed(0)}/s)`,
    );
    console.log(
      `lateness per process-minute (${reports.length} reports): p50 median ${p50s[Math.floor(p50s.length / 2)] ?? 0} ms; p99 median ${p99s[Math.floor(p99s.length / 2)] ?? 0} ms, worst ${worstP99} ms; max ${Math.max(0, ...reports.map((r) => r.lateMaxMs))} ms, at most ${Math.max(0, ...reports.map((r) => r.waiting))} checks waiting for a slot at a report (target p99 < ${LATENESS_TARGET_MS} ms)`,
    );
    // Which minutes were late: a minute (ending at `time`) that overlaps the kill's or the join's takes over a dead
    // process's monitors or hands some over, and is told apart from the steady ones.
    const eventful = (r: (typeof reports)[number]) =>
      [kill.killedAt, joinedAt].some((at) => r.time >= at && r.time - 60_000 <= at + joinMs + 5000);
    const worst = reports.find((r) => r.lateP99Ms === worstP99);
    const steady = reports.filter((r) => !eventful(r)).map((r) => r.lateP99Ms);
    console.log(
      `worst process-minute ended ${worst ? Math.round((worst.time - t0) / 1000) : '?'} s into the window (kill at ${Math.round((kill.killedAt - t0) / 1000)} s, join at ${Math.round((joinedAt - t0) / 1000)} s); p99 of the ${steady.length} minutes overlapping neither: worst ${Math.max(0, ...steady)} ms`,
    );
    // The checks started in each part of the window, from /metrics (p99 < 1 s needs ≥ 99 % within 1 s).
    console.log(
      [
        'checks started on time, from /metrics (p99 < 1 s needs ≥ 99% within 1 s):',
        `  steady, before the kill -9: ${describeShare(parts.steadyBefore)}`,
        `  the kill -9, the restart and the join, until the handed-over monitors ran once: ${describeShare(parts.failover)}`,
        `  steady, after the join: ${describeShare(parts.steadyAfter)}`,
        `  the steady parts together: ${describeShare(sum(parts.steadyBefore, parts.steadyAfter))}`,
        `  the whole window: ${describeShare(sum(parts.steadyBefore, parts.failover, parts.steadyAfter))}`,
      ].join('\n'),
    );
    console.log(
      [
        'CPU in cores by process (Warden a, b, c; PostgreSQL; Redis; the bench with its TCP targets; the rest):',
        `  steady, before the kill -9: ${describeCpu(cpuBetween(cpuAtStart, cpuBeforeKill, pids), INSTANCES)}`,
        `  the kill -9, the restart and the join: ${describeCpu(cpuBetween(cpuBeforeKill, cpuSettled, pids), INSTANCES)}`,
        `  steady, after the join: ${describeCpu(cpuBetween(cpuSettled, cpuAtEnd, pids), INSTANCES)}`,
        '  every 30 s (seconds into the window):',
        ...timeline
          .slice(1)
          .map(
            (sample, i) =>
              `    ${String(Math.round((sample.at - t0) / 1000)).padStart(4)} s: ${describeCpu(cpuBetween(timeline[i] as CpuSample, sample, pids), INSTANCES)}`,
          ),
      ].join('\n'),
    );
    console.log(
      `duplicates: ${report.duplicates.length} (target 0); missed intervals: ${report.missed.length} (target 0)`,
    );
    for (const m of memory)
      console.log(
        `process ${m.id}: peak RSS ${mib(m.peak)} (${(m.peak / idle).toFixed(2)}× an idle process's ${mib(idle)}), now ${mib(m.now)}, ${heldBy.get(m.id)} monitors held at the end: ${((m.peak - idle) / Math.max(1, heldBy.get(m.id) ?? 0) / 1024).toFixed(1)} KiB per monitor over idle`,
      );
    console.log(
      `CPU seconds since each process started: ${memory.map((m) => `${m.id} ${m.cpuSeconds.toFixed(0)}`).join(', ')}; mean ingest commit ${counts.map((c) => `${c.commitMeanMs.toFixed(0)} ms`).join(', ')}; load average ${loadavg()
        .map((n) => n.toFixed(1))
        .join(' ')} on ${cpus().length} cores`,
    );
    console.log(`process b before its kill -9: peak RSS ${mib(kill.peak)} (${(kill.peak / idle).toFixed(2)}× idle)`);
    const ttl = LEASE_DEFAULTS.ttlMs;
    console.log(
      `kill -9 of b (${kill.shards} shards, ${kill.held.length} monitors): every shard leased again after ${(kill.ownedAgainMs / 1000).toFixed(1)} s (${(kill.ownedAgainMs / ttl).toFixed(2)}× the ${ttl / 1000} s lease TTL); all its monitors checked again ${(resumedMs / 1000).toFixed(1)} s after the kill, at most ${(worstLateMs / 1000).toFixed(1)} s past due (target < ${FAILOVER_TARGET_MS / 1000} s); the last to run again: ${slowest}`,
    );
    console.log(
      `b joining again: shares balanced after ${(joinMs / 1000).toFixed(1)} s (${(joinMs / ttl).toFixed(2)}× the lease TTL); the handover's checks are in the cadence above (not excused)`,
    );
    return (
      report.duplicates.length === 0 &&
      report.missed.length === 0 &&
      worstP99 < LATENESS_TARGET_MS &&
      worstLateMs < FAILOVER_TARGET_MS &&
      Number.isFinite(joinMs)
    );
  } finally {
    await cluster.close();
    await targets.close();
  }
}
