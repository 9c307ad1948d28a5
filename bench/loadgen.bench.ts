// A simulated community at a fixed cadence (issue 38, docs/scale.md): R relay agents posting their monitors' results
// every 5 s and P heartbeat senders pinging once per interval, plus a few page readers, against one `warden serve` on
// PostgreSQL (or three on PostgreSQL and Redis: WARDEN_BENCH_LOADGEN_PROCESSES=3). The offered load is fixed, not the
// most the server takes, so what it costs per stored result extrapolates: Warden CPU, PostgreSQL WAL and table bytes,
// commits, Redis commands and bytes per result, latency, and whether every acknowledged result was stored once.
// First, as in src/main.ts: it extends zod with .openapi(), before the modules below create their schemas.
import '@hono/zod-openapi';

import { readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { Redis } from 'ioredis';
import { Cluster, clusterAvailable, REDIS_URL } from '../test/cluster-harness.js';
import { seed } from '../test/seed.js';
import { postgresAvailable } from '../test/store-dialects.js';
import { type Kind, play, Stats, type StatsCounts } from './loadgen-players.js';
import { exactRows, organizations, type Reading, read, type Shape } from './loadgen-probes.js';
import { rates, reportCosts } from './loadgen-report.js';
import type { Benchmark } from './run.js';

const env = (name: string, fallback: number) => Number(process.env[`WARDEN_BENCH_LOADGEN_${name}`] ?? fallback);
const PROCESSES = env('PROCESSES', 1);
const SHAPE: Shape = {
  relays: env('RELAYS', 20),
  monitorsPerRelay: env('MONITORS_PER_RELAY', 100),
  push: env('PUSH', 2000),
  intervalSec: env('INTERVAL', 60),
  perOrganization: env('PER_ORGANIZATION', 1000),
};
/** The measured window, after a warm-up in which every monitor has reported about once. */
const SECONDS = env('SECONDS', 90);
const WARMUP_SEC = env('WARMUP', 20);
/** Measured before the players start: what the processes cost doing nothing (leases, polls, folds), subtracted per result. */
const IDLE_SEC = env('IDLE', 20);
/** Reads of the organizations' status pages a second (round robin over pages and processes). */
const PAGE_READS = env('PAGE_READS', 2);
const MONITORS = SHAPE.relays * SHAPE.monitorsPerRelay + SHAPE.push;
/** Accepted over offered at least this share, else the offered load was more than the server took. */
const KEPT_UP = 0.99;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const per = (n: number, d: number, digits = 2) => (d > 0 ? (n / d).toFixed(digits) : 'n/a');
const mib = (bytes: number) => `${(bytes / 2 ** 20).toFixed(1)} MiB`;

export const benchmark: Benchmark = {
  name: 'loadgen',
  description: `${SHAPE.relays} relays × ${SHAPE.monitorsPerRelay} monitors and ${SHAPE.push} heartbeat monitors every ${SHAPE.intervalSec} s (${Math.round(MONITORS / SHAPE.intervalSec)} results/s offered), ${PAGE_READS} page reads/s, against ${PROCESSES} process(es) on PostgreSQL${PROCESSES > 1 ? ' + Redis' : ''} for ${SECONDS} s: cost per stored result`,
  async run() {
    if (!(PROCESSES > 1 ? clusterAvailable : postgresAvailable)) {
      console.log('PostgreSQL (and Redis for several processes) is not reachable: see test/cluster-harness.ts');
      return false;
    }
    const orgs = organizations(SHAPE);
    const instances =
      PROCESSES > 1 ? Array.from({ length: PROCESSES }, (_, i) => String.fromCharCode(97 + i)) : ['solo'];
    const seeding = Date.now();
    const cluster = await Cluster.start({
      instances,
      withoutRedis: PROCESSES === 1,
      seed: async (store) => {
        for (const file of orgs.files) await seed(store, file, Date.now());
      },
    });
    const redis = PROCESSES > 1 ? new Redis(REDIS_URL) : null;
    try {
      console.log(
        `${MONITORS} monitors in ${orgs.files.length} organizations seeded and ${instances.length} process(es) started in ${((Date.now() - seeding) / 1000).toFixed(0)} s`,
      );
      const pids = instances.map((id) => cluster.member(id).child.pid as number);
      // The start's own work (shards taken 16 a round, caches filled) settles first.
      await sleep(10_000);
      const idleFrom = await read(cluster, pids, redis);
      await sleep(IDLE_SEC * 1000);
      const idle = rates(idleFrom, await read(cluster, pids, redis));
      const stats = new Stats();
      const players = play({
        urls: instances.map((id) => cluster.url(id)),
        relayTokens: orgs.relayTokens,
        pushTokens: orgs.pushTokens,
        pageSlugs: orgs.slugs,
        pageReadsPerSec: PAGE_READS,
        intervalMs: SHAPE.intervalSec * 1000,
        stats,
      });
      await sleep(WARMUP_SEC * 1000);
      const before = { reading: await read(cluster, pids, redis), counts: stats.counts() };
      await sleep(SECONDS * 1000);
      if (!allRunning(cluster, instances)) {
        await players.stop();
        return false;
      }
      const after = { reading: await read(cluster, pids, redis), counts: stats.counts() };
      // The window's figures first: they stand whatever happens while the players stop.
      const met = reportWindow(before, after, stats, loadavg()[0] as number);
      reportCosts(rates(before.reading, after.reading), idle, PROCESSES);
      await players.stop();
      // Every journaled row folded (about once a second) before the last counts and sizes.
      await sleep(3000);
      if (!allRunning(cluster, instances)) return false;
      const end = await read(cluster, pids, redis);
      const rows = await exactRows(cluster);
      return reportEnd(end, rows, stats.counts(), pids) && met;
    } finally {
      redis?.disconnect();
      // An orderly stop: a process profiled (WARDEN_BENCH_NODE_ARGS=--cpu-prof) writes its profile as it exits.
      if (process.env.WARDEN_BENCH_NODE_ARGS) for (const id of instances) await cluster.stopMember(id).catch(() => {});
      await cluster.close();
    }
  },
};

/** Whether every process still runs; the log's tail of one that exited. */
function allRunning(cluster: Cluster, instances: string[]): boolean {
  for (const id of instances) {
    const member = cluster.member(id);
    if (member.child.exitCode === null && member.child.signalCode === null) continue;
    console.log(
      `process ${id} EXITED (${member.child.exitCode ?? member.child.signalCode}); its log ends:\n${member.log().split('\n').slice(-40).join('\n')}`,
    );
    return false;
  }
  return true;
}

interface Mark {
  reading: Reading;
  counts: StatsCounts;
}

/** The window's figures: offered and accepted, failures, latency, and the cost of each stored result. */
function reportWindow(before: Mark, after: Mark, stats: Stats, load: number): boolean {
  const b = before.reading;
  const a = after.reading;
  const sec = (a.at - b.at) / 1000;
  const stored = a.stored.relay - b.stored.relay + (a.stored.push - b.stored.push);
  const d = (pick: (c: StatsCounts) => number) => pick(after.counts) - pick(before.counts);
  const offered = { relay: d((c) => c.offered.relay), push: d((c) => c.offered.push) };
  const accepted = { relay: d((c) => c.stored.relay), push: d((c) => c.stored.push) };
  console.log(
    `window ${sec.toFixed(0)} s (after ${WARMUP_SEC} s of warm-up), ${PROCESSES} process(es), load average ${load.toFixed(1)} on ${readFileSync('/proc/cpuinfo', 'utf8').match(/^processor/gm)?.length} cores`,
  );
  console.log(
    `offered: ${per(offered.relay, sec, 1)} relay results/s, ${per(offered.push, sec, 1)} heartbeats/s; accepted: ${per(accepted.relay, sec, 1)} and ${per(accepted.push, sec, 1)} (${per(accepted.relay + accepted.push, offered.relay + offered.push, 4)} of offered); stored in the window: ${per(stored, sec, 1)}/s`,
  );
  let failures = 0;
  for (const kind of ['relay', 'push', 'page', 'config'] as Kind[]) {
    const t = stats.requests[kind].latency(b.at, a.at);
    const failed = d((c) => c.requests[kind].failed);
    failures += failed;
    const statuses = Object.entries(after.counts.requests[kind].statuses)
      .map(([s, n]) => `${s}×${n}`)
      .join(' ');
    console.log(
      `  ${kind.padEnd(6)} requests ${per(
        d((c) => c.requests[kind].sent),
        sec,
        1,
      )}/s, failed ${failed}${statuses ? ` (since start: ${statuses})` : ''}, latency p50 ${t.p50.toFixed(1)} ms p99 ${t.p99.toFixed(1)} ms (${t.n} answers)`,
    );
  }
  console.log(
    `  rejected results ${d((c) => c.rejected)}, duplicates ${d((c) => c.duplicates)}, results due but not sent (too many pings waiting, or left at the stop) ${d((c) => c.skipped)}`,
  );
  return failures === 0;
}

/** Peak resident memory of a process (VmHWM), bytes. */
function peakRss(pid: number): number {
  return Number(/VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0) * 1024;
}

/** After the players stopped and the journal folded: nothing lost, the bytes each stored row takes, memory. */
function reportEnd(
  end: Reading,
  rows: { checks: number; hourly: number; daily: number },
  counts: StatsCounts,
  pids: number[],
): boolean {
  // Every acknowledged result is stored once; beyond them only results of requests that got no answer may be.
  const fits = (kind: 'relay' | 'push') =>
    end.stored[kind] >= counts.stored[kind] && end.stored[kind] <= counts.stored[kind] + counts.unanswered[kind];
  const exact = fits('relay') && fits('push');
  console.log(
    `stored vs acknowledged since the start: relay ${end.stored.relay} for ${counts.stored.relay} (+${counts.unanswered.relay} in requests never answered), push ${end.stored.push} for ${counts.stored.push} (+${counts.unanswered.push}; ${counts.requests.push.sent} pings sent of ${counts.offered.push} due) (${exact ? 'nothing lost, nothing doubled' : 'MISMATCH'})`,
  );
  const t = (f: string) => end.tables[f] ?? { bytes: 0, rows: 0, writes: 0 };
  console.log(
    `on disk: checks ${mib(t('checks').bytes)} for ${rows.checks} rows (${per(t('checks').bytes, rows.checks, 0)} bytes a row with its indexes), hourly buckets ${mib(t('hourly').bytes)} for ${rows.hourly} rows (${per(t('hourly').bytes, rows.hourly, 0)} a row), daily ${mib(t('daily').bytes)} for ${rows.daily} (${per(t('daily').bytes, rows.daily, 0)}), journal ${mib(t('journal').bytes)}, monitors ${mib(t('monitors').bytes)}, the rest ${mib(t('other').bytes)}`,
  );
  console.log(
    `Warden memory per process: ${end.warden.map((w, i) => `${mib(w.rss)} now, ${mib(peakRss(pids[i] as number))} peak`).join('; ')}`,
  );
  // Judged since the start, once every answer came: answers still under way when the window closed count too.
  const offered = counts.offered.relay + counts.offered.push;
  const keptUp = counts.stored.relay + counts.stored.push >= KEPT_UP * offered;
  console.log(
    `kept up with the offered load: ${per(counts.stored.relay + counts.stored.push, offered, 4)} of the ${offered} results offered since the start acknowledged (target ≥ ${KEPT_UP})`,
  );
  return keptUp && exact;
}
