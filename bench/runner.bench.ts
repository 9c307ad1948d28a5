// The edge runner at scale (10,000 TCP monitors every 30 s against a local target) and how fast checks are stored.
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

const MONITORS = Number(process.env.BENCH_RUNNER_MONITORS ?? 10_000);
const INTERVAL_SEC = 30;
const SECONDS = Number(process.env.BENCH_RUNNER_SECONDS ?? 120);

export const benchmark: Benchmark = {
  name: 'runner',
  description: `warden serve running ${MONITORS} TCP monitors every ${INTERVAL_SEC} s for ${SECONDS} s, and stored checks per second`,
  async run() {
    const scale = await runnerAtScale();
    const storage = await storageThroughput();
    return storage && scale;
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

/**
 * The real server, as deployed: `warden config apply` stores 10,000 TCP monitors, then `warden serve` (built, plain
 * node) runs them. Its resident memory is sampled from /proc every 500 ms; lateness comes from the runner's own log.
 */
async function runnerAtScale(): Promise<boolean> {
  const dataDir = mkdtempSync(join(tmpdir(), 'warden-bench-runner-'));
  const target = await startTarget();
  try {
    const lines = ['organization: { name: Bench }', 'monitors:'];
    for (let i = 0; i < MONITORS; i++)
      lines.push(
        `  - { key: m${i}, name: Monitor ${i}, type: tcp, intervalSec: ${INTERVAL_SEC}, timeoutMs: 5000, config: { host: 127.0.0.1, port: ${target.port} } }`,
      );
    const configFile = join(dataDir, 'bench.yaml');
    writeFileSync(configFile, lines.join('\n'));
    const apply = spawnSync(process.execPath, [CLI, 'config', 'apply', configFile], {
      env: { ...process.env, WARDEN_DATA_DIR: dataDir, LOG_LEVEL: 'warn' },
    });
    if (apply.status !== 0) throw new Error(`config apply failed: ${apply.stderr}`);

    const server = await startWardenProcess({ WARDEN_DATA_DIR: dataDir, LOG_LEVEL: 'info' });
    const pid = server.process.pid as number;
    const start = processUsage(pid);
    let peakRss = start.rss;
    const sampler = setInterval(() => {
      const { rss } = processUsage(pid);
      peakRss = Math.max(peakRss, rss);
      if (process.env.BENCH_VERBOSE) console.log(`rss ${(rss / 2 ** 20).toFixed(0)} MB`);
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
    const short = MONITORS - perMonitor.filter((r) => r.n >= expectedEach).length;
    const total = perMonitor.reduce((n, r) => n + r.n, 0);
    const failed = perMonitor.reduce((n, r) => n + r.failed, 0);
    const cpuMsPerCheck = ((end.cpuSeconds - start.cpuSeconds) * 1000) / Math.max(1, total);
    console.log(
      `warden serve ran ${MONITORS} monitors for ${SECONDS} s: ${total} checks stored (${stopped.checks} run), ${failed} failed`,
    );
    console.log(`monitors with fewer than ${expectedEach} checks (skipped runs): ${short} (target 0)`);
    console.log(
      `lateness p50 ${stopped.lateP50Ms} ms, p99 ${stopped.lateP99Ms} ms, max ${stopped.lateMaxMs} ms (target p99 < 1000 ms)`,
    );
    console.log(
      `resident memory: ${(start.rss / 2 ** 20).toFixed(0)} MB after start, peak ${(peakRss / 2 ** 20).toFixed(0)} MB (target < 300 MB); CPU ${cpuMsPerCheck.toFixed(3)} ms per check`,
    );
    return short === 0 && stopped.lateP99Ms < 1000 && peakRss < 300 * 2 ** 20;
  } finally {
    target.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

/** Each monitor's stored checks and failures, read from the stopped server's SQLite file. */
async function checksPerMonitor(dataDir: string): Promise<{ n: number; failed: number }[]> {
  const store = await openStore({ dataDir });
  try {
    const counts = [];
    for (const id of await store.monitors.listIds()) {
      const checks = await store.checks.list(id, { from: 0, to: Number.MAX_SAFE_INTEGER, limit: 1_000_000 });
      counts.push({ n: checks.length, failed: checks.filter((c) => !c.ok).length });
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
