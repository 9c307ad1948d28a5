// The edge runner at scale (10,000 TCP monitors every 30 s against a local target) and how fast checks are stored.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { createInProcessBus } from '../src/bus/bus.js';
import { validateConfig } from '../src/config/load.js';
import { applyConfig } from '../src/config/sync.js';
import { createLogger } from '../src/logger.js';
import { createIngest, type IngestInput } from '../src/runner/ingest.js';
import { createScheduler } from '../src/runner/scheduler.js';
import { connectStore } from '../src/store/connect.js';
import { migrateToLatest } from '../src/store/migrate.js';
import type { Benchmark } from './run.js';

const MONITORS = Number(process.env.BENCH_RUNNER_MONITORS ?? 10_000);
const INTERVAL_SEC = 30;
const SECONDS = Number(process.env.BENCH_RUNNER_SECONDS ?? 120);

export const benchmark: Benchmark = {
  name: 'runner',
  description: `${MONITORS} TCP monitors every ${INTERVAL_SEC} s for ${SECONDS} s, and stored checks per second`,
  async run() {
    // Scale first: RSS is measured in this process and must not include the storage run's garbage.
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

async function runnerAtScale(): Promise<boolean> {
  const dataDir = mkdtempSync(join(tmpdir(), 'warden-bench-runner-'));
  const target = await startTarget();
  const store = await connectStore({ dataDir });
  const logger = createLogger('silent');
  try {
    await migrateToLatest(store.db);
    const config = validateConfig(
      {
        organization: { name: 'Bench' },
        monitors: Array.from({ length: MONITORS }, (_, i) => ({
          key: `m${i}`,
          name: `Monitor ${i}`,
          type: 'tcp',
          intervalSec: INTERVAL_SEC,
          timeoutMs: 5000,
          config: { host: '127.0.0.1', port: target.port },
        })),
      },
      'bench',
    );
    await applyConfig(store.db, config, Date.now());
    const bus = createInProcessBus();
    const clock = { now: () => Date.now() };
    const ingest = createIngest({ db: store.db, bus, clock, logger });
    const scheduler = createScheduler({ db: store.db, ingest, bus, clock, logger });
    const started = Date.now();
    const cpuBefore = process.cpuUsage();
    let peakRss = 0;
    let peakHeap = 0;
    const sampler = setInterval(() => {
      const memory = process.memoryUsage();
      peakRss = Math.max(peakRss, memory.rss);
      peakHeap = Math.max(peakHeap, memory.heapUsed);
      if (process.env.BENCH_VERBOSE) console.log(`rss ${(memory.rss / 2 ** 20).toFixed(0)} MB heap ${(memory.heapUsed / 2 ** 20).toFixed(0)}/${(memory.heapTotal / 2 ** 20).toFixed(0)} MB external ${(memory.external / 2 ** 20).toFixed(0)} MB`);
    }, 500);
    await scheduler.start();
    await new Promise((resolve) => setTimeout(resolve, SECONDS * 1000 + 1000));
    const stats = scheduler.stats();
    await scheduler.stop();
    await ingest.close();
    clearInterval(sampler);
    const cpu = process.cpuUsage(cpuBefore);
    const elapsed = (Date.now() - started) / 1000;

    const perMonitor = await store.db
      .selectFrom('checks')
      .select(['monitor_id', (eb) => eb.fn.countAll<number>().as('n')])
      .groupBy('monitor_id')
      .execute();
    const failed = await store.db.selectFrom('checks').select((eb) => eb.fn.countAll<number>().as('n')).where('ok', '=', 0).executeTakeFirstOrThrow();
    const expectedEach = Math.floor(SECONDS / INTERVAL_SEC);
    const short = MONITORS - perMonitor.filter((r) => Number(r.n) >= expectedEach).length;
    const total = perMonitor.reduce((n, r) => n + Number(r.n), 0);
    const lateness = [...stats.lateness].sort((a, b) => a - b);
    const p99 = lateness[Math.floor(lateness.length * 0.99)] ?? 0;
    const p50 = lateness[Math.floor(lateness.length * 0.5)] ?? 0;
    const cpuMsPerCheck = (cpu.user + cpu.system) / 1000 / Math.max(1, total);
    console.log(`${total} checks in ${elapsed.toFixed(0)} s (${(total / elapsed).toFixed(0)}/s); ${Number(failed.n)} failed`);
    console.log(`monitors with fewer than ${expectedEach} checks (skipped runs): ${short} (target 0)`);
    console.log(`lateness p50 ${p50} ms, p99 ${p99} ms (target p99 < 1000 ms)`);
    console.log(`peak RSS ${(peakRss / 2 ** 20).toFixed(0)} MB (target < 300 MB), peak JS heap ${(peakHeap / 2 ** 20).toFixed(0)} MB; CPU ${cpuMsPerCheck.toFixed(3)} ms per check`);
    return short === 0 && p99 < 1000 && peakRss < 300 * 2 ** 20;
  } finally {
    target.stop();
    await store.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

async function storageThroughput(): Promise<boolean> {
  const dataDir = mkdtempSync(join(tmpdir(), 'warden-bench-ingest-'));
  const store = await connectStore({ dataDir });
  const logger = createLogger('silent');
  try {
    await migrateToLatest(store.db);
    const config = validateConfig(
      {
        organization: { name: 'Bench' },
        monitors: Array.from({ length: 1000 }, (_, i) => ({ key: `m${i}`, name: `M${i}`, type: 'tcp', config: { host: '127.0.0.1', port: 1 } })),
      },
      'bench',
    );
    await applyConfig(store.db, config, Date.now());
    const ids = (await store.db.selectFrom('monitors').select('id').execute()).map((r) => r.id);
    const ingest = createIngest({ db: store.db, bus: createInProcessBus(), clock: { now: () => Date.now() }, logger });
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
    raw.exec('create table checks (id integer primary key, monitor_id text, checked_at integer, ok integer, latency_ms integer, data text)');
    const insert = raw.prepare('insert into checks (monitor_id, checked_at, ok, latency_ms, data) values (?, ?, ?, ?, ?)');
    const rawStarted = performance.now();
    raw.transaction(() => {
      for (const input of inputs) insert.run(input.monitorId, input.checkedAt, input.ok ? 1 : 0, input.latencyMs, JSON.stringify(input.data));
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
