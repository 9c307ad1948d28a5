// The edge runner at scale and how fast checks are stored. Two scenarios with the same monitor count and interval, each
// its own server, run side by side over the same two minutes: TCP monitors against a local target (the baseline) and
// a mix of the newer monitor types against local servers (bench/runner-mix.ts); the mix must keep lateness p99 and CPU
// per check within 20 % of the baseline.
//
// Knobs (environment): BENCH_RUNNER_MONITORS (10000) monitors per scenario; BENCH_RUNNER_SECONDS (120) each scenario
// runs; BENCH_RUNNER_PING_SHARE (0.005) the share of the mix using the system's ping (a process per check);
// BENCH_RUNNER_MIX=0 runs the TCP scenario alone; BENCH_RUNNER_TYPES=grpc,mongodb limits the mix to those types (to
// see what one costs); BENCH_RUNNER_SEQUENTIAL=1 runs the baseline first and the mix after it, each alone on the
// machine. A quick run: BENCH_RUNNER_MONITORS=1000 BENCH_RUNNER_SECONDS=65 (at least 30 s, one interval).
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { applyConfig } from '../src/config/apply.js';
import { validateConfig } from '../src/config/load.js';
import { createIngest, type IngestInput } from '../src/runner/ingest.js';
import { openStore } from '../src/store/open-store.js';
import { testContext } from '../test/seed.js';
import { CLI, processUsage, startWardenProcess } from './processes.js';
import type { Benchmark } from './run.js';
import { kindOf, type Mix, startMix } from './runner-mix.js';

const MONITORS = Number(process.env.BENCH_RUNNER_MONITORS ?? 10_000);
const INTERVAL_SEC = 30;
const SECONDS = Number(process.env.BENCH_RUNNER_SECONDS ?? 120);
const PING_SHARE = Number(process.env.BENCH_RUNNER_PING_SHARE ?? 0.005);
const MIX = process.env.BENCH_RUNNER_MIX !== '0';
const TYPES = process.env.BENCH_RUNNER_TYPES?.split(',').filter(Boolean);
/** The two scenarios one after the other (as before 2026-12-01) instead of side by side. */
const SEQUENTIAL = process.env.BENCH_RUNNER_SEQUENTIAL === '1';
/** How much worse than the TCP baseline the mix may be, in lateness p99 and CPU per check (issue 35). */
const MIX_TARGET = 1.2;
/** Both scenarios reach 127.0.0.1. */
const ENV = { WARDEN_PROBE_PRIVATE_TARGETS: 'allow' };

export const benchmark: Benchmark = {
  name: 'runner',
  description: `warden serve running ${MONITORS} TCP monitors${MIX ? `, ${SEQUENTIAL ? 'then' : 'beside'} a server running as many of the newer types,` : ''} every ${INTERVAL_SEC} s for ${SECONDS} s, and stored checks per second`,
  async run() {
    const met = !MIX ? (await tcpScenario()).met : SEQUENTIAL ? await oneAfterTheOther() : await sideBySide();
    const storage = await storageThroughput();
    return storage && met;
  },
};

function startTarget(): Promise<{ port: number; stop(): void }> {
  const script = `
    const server = require('node:net').createServer((s) => { s.on('error', () => {}); s.end(); });
    server.listen(0, '127.0.0.1', () => console.log('listening ' + server.address().port));`;
  const child = spawn(process.execPath, ['-e', script], { stdio: ['ignore', 'pipe', 'inherit'] });
  return new Promise((resolve) => {
    child.stdout.on('data', (d: Buffer) => {
      const match = /listening (\d+)/.exec(String(d));
      if (match) resolve({ port: Number(match[1]), stop: () => child.kill() });
    });
  });
}

interface Monitor {
  type: string;
  config: Record<string, unknown>;
}

interface Figures {
  lateP50Ms: number;
  lateP99Ms: number;
  cpuMsPerCheck: number;
  /** Every target of the scenario met (no skipped runs, p99 < 1 s, memory < 300 MB). */
  met: boolean;
  /** Per monitor type: monitors, stored checks, failed checks and one failure's error. */
  byType: Map<string, { monitors: number; checks: number; failed: number; error?: string }>;
  /** What the run says, printed once it is over (two runs side by side would interleave). */
  lines: string[];
}

async function tcpScenario(): Promise<Figures> {
  const target = await startTarget();
  try {
    console.log(`TCP only: ${MONITORS} tcp monitors against a local target (a child process)`);
    const tcp = await runnerAtScale(tcpMonitors(target.port));
    printScenario(tcp);
    return tcp;
  } finally {
    target.stop();
  }
}

const tcpMonitors = (port: number): Monitor[] =>
  Array.from({ length: MONITORS }, () => ({ type: 'tcp', config: { host: '127.0.0.1', port } }));

/** The mix's monitors against its servers, and the line that says what they are. */
function mixMonitors(mix: Mix): { monitors: Monitor[]; title: string } {
  const kinds = mix.kinds.filter((k) => !TYPES || TYPES.includes(k.type));
  if (kinds.length === 0) throw new Error(`BENCH_RUNNER_TYPES names none of ${mix.kinds.map((k) => k.type)}`);
  const pingShare = TYPES && !TYPES.includes('ping') ? 0 : PING_SHARE;
  const monitors = Array.from({ length: MONITORS }, (_, i) => {
    const kind = kindOf(i, MONITORS, kinds, pingShare);
    return { type: kind.type, config: kind.config(i) };
  });
  const against = [...new Set(kinds.map((k) => `${k.type} (${k.against})`))].join(', ');
  return {
    monitors,
    title: `mixed: ${MONITORS} monitors, ${(pingShare * 100).toFixed(1)} % ICMP ping (system ping), the rest in turn: ${against}`,
  };
}

/** The baseline, then the mix: each alone on the machine, minutes apart (BENCH_RUNNER_SEQUENTIAL=1). */
async function oneAfterTheOther(): Promise<boolean> {
  const tcp = await tcpScenario();
  const mix = await startMix();
  try {
    const { monitors, title } = mixMonitors(mix);
    console.log(`\n${title}`);
    const mixed = await runnerAtScale(monitors);
    printScenario(mixed);
    return compare(tcp, mixed);
  } finally {
    await mix.close();
  }
}

/**
 * Both servers at once, each with its monitors, over the same two minutes: whatever else the shared machine runs,
 * and however fast it is then, it weighs on both, so their ratio holds from one run to the next better than that of
 * two runs minutes apart (the TCP run's CPU per check moved by half between such runs in one afternoon). Each server
 * also bears the other's load, the mix's servers' and the TCP target's.
 */
async function sideBySide(): Promise<boolean> {
  const target = await startTarget();
  const mix = await startMix();
  try {
    const { monitors, title } = mixMonitors(mix);
    console.log(
      `side by side, each its own server: ${MONITORS} tcp monitors against a local target (a child process); ${title}`,
    );
    const [tcp, mixed] = await Promise.all([runnerAtScale(tcpMonitors(target.port)), runnerAtScale(monitors)]);
    console.log('\nTCP only:');
    printScenario(tcp);
    console.log('\nmixed:');
    printScenario(mixed);
    return tcp.met && compare(tcp, mixed);
  } finally {
    target.stop();
    await mix.close();
  }
}

function printScenario(f: Figures): void {
  for (const line of f.lines) console.log(line);
}

/** The mix against the baseline: the table, the ratios and their verdict. */
function compare(tcp: Figures, mixed: Figures): boolean {
  for (const [type, t] of [...mixed.byType].sort())
    console.log(
      `  ${type}: ${t.monitors} monitors, ${t.checks} checks, ${t.failed} failed${t.error ? ` (${t.error.slice(0, 160)})` : ''}`,
    );
  const lateRatio = mixed.lateP99Ms / Math.max(1, tcp.lateP99Ms);
  const cpuRatio = mixed.cpuMsPerCheck / tcp.cpuMsPerCheck;
  const verdict = (ratio: number) => (ratio <= MIX_TARGET ? 'met' : 'MISSED');
  console.log(`\n| scenario | lateness p50 | lateness p99 | CPU per check |\n|---|---|---|---|`);
  for (const [name, f] of [
    ['TCP only', tcp],
    ['mixed', mixed],
  ] as const)
    console.log(`| ${name} | ${f.lateP50Ms} ms | ${f.lateP99Ms} ms | ${f.cpuMsPerCheck.toFixed(3)} ms |`);
  console.log(
    `mixed / TCP${SEQUENTIAL ? '' : ', side by side'}: lateness p99 ${lateRatio.toFixed(2)}, CPU per check ${cpuRatio.toFixed(2)} (target ≤ ${MIX_TARGET} each: ${verdict(lateRatio)}, ${verdict(cpuRatio)})`,
  );
  return mixed.met && lateRatio <= MIX_TARGET && cpuRatio <= MIX_TARGET;
}

/**
 * The real server, as deployed: `warden config apply` stores the monitors, then `warden serve` (built, plain node) runs
 * them. Its resident memory is sampled from /proc every 500 ms; lateness comes from the runner's own log.
 */
async function runnerAtScale(monitors: Monitor[]): Promise<Figures> {
  const dataDir = mkdtempSync(join(tmpdir(), 'warden-bench-runner-'));
  const said: string[] = [];
  try {
    const lines = ['organization: { name: Bench }', 'monitors:'];
    for (const [i, m] of monitors.entries())
      lines.push(
        `  - ${JSON.stringify({ key: `m${i}`, name: `Monitor ${i}`, type: m.type, intervalSec: INTERVAL_SEC, timeoutMs: 5000, config: m.config })}`,
      );
    const configFile = join(dataDir, 'bench.yaml');
    writeFileSync(configFile, lines.join('\n'));
    const apply = spawnSync(process.execPath, [CLI, 'config', 'apply', configFile], {
      env: { ...process.env, ...ENV, WARDEN_DATA_DIR: dataDir, LOG_LEVEL: 'warn' },
    });
    if (apply.status !== 0) throw new Error(`config apply failed: ${apply.stderr}`);

    const server = await startWardenProcess({ ...ENV, WARDEN_DATA_DIR: dataDir, LOG_LEVEL: 'info' });
    const pid = server.process.pid as number;
    const start = processUsage(pid);
    let peakRss = start.rss;
    const sampler = setInterval(() => {
      const { rss } = processUsage(pid);
      peakRss = Math.max(peakRss, rss);
      if (process.env.BENCH_VERBOSE) said.push(`rss ${(rss / 2 ** 20).toFixed(0)} MB`);
    }, 500);
    await new Promise((resolve) => setTimeout(resolve, SECONDS * 1000 + 1000));
    clearInterval(sampler);
    const end = processUsage(pid);
    peakRss = Math.max(peakRss, end.rss);
    await server.stop();
    const stopped = server
      .log()
      .split('\n')
      .filter((line) => line.includes('"edge runner stopped"'))
      .map((line) => JSON.parse(line) as { checks: number; lateP50Ms: number; lateP99Ms: number; lateMaxMs: number })
      .at(-1);
    if (!stopped) throw new Error(`the server did not log its runner summary:\n${server.log().slice(-2000)}`);

    const perMonitor = await checksPerMonitor(dataDir);
    const expectedEach = Math.floor(SECONDS / INTERVAL_SEC);
    const short = monitors.length - perMonitor.filter((r) => r.n >= expectedEach).length;
    const total = perMonitor.reduce((n, r) => n + r.n, 0);
    const failed = perMonitor.reduce((n, r) => n + r.failed, 0);
    const cpuMsPerCheck = ((end.cpuSeconds - start.cpuSeconds) * 1000) / Math.max(1, total);
    said.push(
      `warden serve ran ${monitors.length} monitors for ${SECONDS} s: ${total} checks stored (${stopped.checks} run), ${failed} failed`,
    );
    said.push(`monitors with fewer than ${expectedEach} checks (skipped runs): ${short} (target 0)`);
    said.push(
      `lateness p50 ${stopped.lateP50Ms} ms, p99 ${stopped.lateP99Ms} ms, max ${stopped.lateMaxMs} ms (target p99 < 1000 ms)`,
    );
    said.push(
      `resident memory: ${(start.rss / 2 ** 20).toFixed(0)} MB after start, peak ${(peakRss / 2 ** 20).toFixed(0)} MB (target < 300 MB); CPU ${cpuMsPerCheck.toFixed(3)} ms per check`,
    );
    const byType = new Map<string, { monitors: number; checks: number; failed: number; error?: string }>();
    for (const r of perMonitor) {
      const t = byType.get(r.type) ?? { monitors: 0, checks: 0, failed: 0 };
      byType.set(r.type, {
        ...t,
        monitors: t.monitors + 1,
        checks: t.checks + r.n,
        failed: t.failed + r.failed,
        ...((t.error ?? r.error) ? { error: t.error ?? r.error } : {}),
      });
    }
    return {
      lateP50Ms: stopped.lateP50Ms,
      lateP99Ms: stopped.lateP99Ms,
      cpuMsPerCheck,
      met: short === 0 && stopped.lateP99Ms < 1000 && peakRss < 300 * 2 ** 20,
      byType,
      lines: said,
    };
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
}

/** Each monitor's type, stored checks and failures (with one failure's error), read from the stopped server's SQLite. */
async function checksPerMonitor(
  dataDir: string,
): Promise<{ type: string; n: number; failed: number; error?: string }[]> {
  const store = await openStore({ dataDir });
  try {
    const counts = [];
    for (const monitor of await store.monitors.findByIds(await store.monitors.listIds())) {
      const checks = await store.checks.list(monitor.id, { from: 0, to: Number.MAX_SAFE_INTEGER, limit: 1_000_000 });
      const failures = checks.filter((c) => !c.ok);
      const error = failures[0]?.error ?? undefined;
      counts.push({ type: monitor.type, n: checks.length, failed: failures.length, ...(error ? { error } : {}) });
    }
    return counts;
  } finally {
    await store.close();
  }
}

async function storageThroughput(): Promise<boolean> {
  const dataDir = mkdtempSync(join(tmpdir(), 'warden-bench-ingest-'));
  const store = await openStore({ dataDir });
  const ctx = testContext(store, { now: () => Date.now() });
  try {
    await store.migrate();
    const config = validateConfig(
      {
        organization: { name: 'Bench' },
        monitors: Array.from({ length: 1000 }, (_, i) => ({
          key: `m${i}`,
          name: `M${i}`,
          type: 'tcp',
          config: { host: '127.0.0.1', port: 1 },
        })),
      },
      'bench',
    );
    await applyConfig(ctx, config);
    const ids = await store.monitors.listIds();
    const ingest = createIngest(ctx);
    const count = 100_000;
    const base = Date.now();
    const inputs: IngestInput[] = Array.from({ length: count }, (_, i) => ({
      monitorId: ids[i % ids.length] as string,
      ok: i % 10 !== 0,
      latencyMs: i % 200,
      data: { players: i % 50 },
      source: 'edge',
      checkedAt: base + i,
    }));
    const started = performance.now();
    await ingest.recordMany(inputs);
    const seconds = (performance.now() - started) / 1000;
    await ingest.close();
    const rate = count / seconds;

    // Baseline: the same rows through a bare prepared INSERT in one transaction (no buckets, no state).
    const raw = new Database(join(dataDir, 'baseline.db'));
    raw.pragma('journal_mode = WAL');
    raw.exec(
      'create table checks (id integer primary key, monitor_id text, checked_at integer, ok integer, latency_ms integer, data text)',
    );
    const insert = raw.prepare(
      'insert into checks (monitor_id, checked_at, ok, latency_ms, data) values (?, ?, ?, ?, ?)',
    );
    const rawStarted = performance.now();
    raw.transaction(() => {
      for (const input of inputs)
        insert.run(input.monitorId, input.checkedAt, input.ok ? 1 : 0, input.latencyMs, JSON.stringify(input.data));
    })();
    const rawRate = count / ((performance.now() - rawStarted) / 1000);
    raw.close();
    console.log(
      `ingest: ${count} checks stored (with hourly+daily buckets and state) at ${rate.toFixed(0)}/s (target ≥ 20000/s); bare INSERT baseline ${rawRate.toFixed(0)}/s; ratio ${(rate / rawRate).toFixed(2)}`,
    );
    return rate >= 20_000;
  } finally {
    await store.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}
