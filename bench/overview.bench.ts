// The table of issue 19: Warden's cached reads and durable pushes, each right after bare node:http (a fixed 607-byte
// JSON, and the same bytes Warden answers), cold start, and the server's resident memory idle and after that load.
import { cpSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type CheckRow, HOUR_MS } from '../src/domain/check.js';
import { openStore } from '../src/store/open-store.js';
import { seed } from '../test/seed.js';
import { formatLoad, type LoadResult } from './load.js';
import { CONNECTIONS, formatMemory, MIB, measure, median, memory, WRK } from './overview-measure.js';
import { BUNDLE, START_NODE_ARGS, startBaselineProcess, startWardenProcess, timeToFirst200 } from './processes.js';
import type { Benchmark } from './run.js';

/** Seconds of each load run; WARDEN_BENCH_SECONDS=2 for a quick run. */
const SECONDS = Number(process.env.WARDEN_BENCH_SECONDS ?? 5);
/** How long the server idles before its idle RSS is read (20 s as in the issue); WARDEN_BENCH_IDLE_SEC=3 for a quick run. */
const IDLE_SEC = Number(process.env.WARDEN_BENCH_IDLE_SEC ?? 20);
/** Extra node flags for the Warden process (e.g. --max-semi-space-size=8), to compare memory and throughput. */
const EXTRA_NODE_OPTIONS = process.env.WARDEN_BENCH_NODE_OPTIONS ?? '';
/** Cold starts measured (median taken); WARDEN_BENCH_COLD_STARTS=0 skips them. */
const COLD_STARTS = Number(process.env.WARDEN_BENCH_COLD_STARTS ?? 5);
const TARGETS = { smallForms: 0.6, push100: 0.25, coldStartMs: 350, rssIdleMiB: 80, rssLoadedMiB: 150 };

export const SLUG = 'bench';
const COMPONENTS = 8;
export const PUSH_TOKENS = Array.from({ length: 100 }, (_, i) => `wdp_overviewPush${String(i).padStart(6, '0')}`);
const PROBE = fileURLToPath(new URL('./memory-probe.mjs', import.meta.url));

/** The fixed baseline of the issue: a 607-byte JSON, whatever the row serves. */
const FIXED_JSON = Buffer.from(JSON.stringify({ status: 'ok', padding: 'x'.repeat(607 - 28) }));

export const benchmark: Benchmark = {
  name: 'overview',
  description: `issue 19's table: cached reads and durable pushes vs bare node:http (${CONNECTIONS} connections, ${WRK ? 'wrk' : 'autocannon'}), cold start, RSS idle and after load`,
  async run() {
    const dir = mkdtempSync(join(tmpdir(), 'warden-bench-overview-'));
    try {
      const config = join(dir, 'warden.yaml');
      const seeded = join(dir, 'seeded');
      await seedDataDir(seeded, config);
      const cold = COLD_STARTS > 0 ? await coldStarts(seeded, config, dir) : null;
      const table = await loadTable(seeded, config, dir);
      if (!cold) return table;
      console.log(
        `cold start, spawn → first 200 on the status JSON (median of ${COLD_STARTS}): warden ${cold.warden.toFixed(0)} ms, bare node:http ${cold.bare.toFixed(0)} ms (target < ${TARGETS.coldStartMs} ms)`,
      );
      return table && cold.warden < TARGETS.coldStartMs;
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  },
};

/** A page of 8 components with 90 days of history (heartbeat monitors: nothing probes), and 100 push tokens on other monitors. */
export async function seedDataDir(dataDir: string, configFile: string): Promise<void> {
  const monitors = [
    ...Array.from(
      { length: COMPONENTS },
      (_, i) => `  - { key: c${i}, name: Server ${i}, type: heartbeat, config: { graceSec: 86400 } }`,
    ),
    ...PUSH_TOKENS.map(
      (token, i) =>
        `  - { key: p${i}, name: Job ${i}, type: heartbeat, pushToken: ${token}, config: { graceSec: 86400 } }`,
    ),
  ];
  const components = Array.from(
    { length: COMPONENTS },
    (_, i) => `      - { name: Server ${i}, monitor: c${i}, group: Group ${i % 3}, description: Game server ${i} }`,
  );
  const yaml = `organization: { key: bench, name: Bench }\nmonitors:\n${monitors.join('\n')}\npages:\n  - slug: ${SLUG}\n    title: Bench network\n    components:\n${components.join('\n')}\n`;
  writeFileSync(configFile, yaml);
  const store = await openStore({ dataDir });
  try {
    await store.migrate();
    const now = Date.now();
    const { monitors: byKey } = await seed(store, yaml, now);
    const rows: CheckRow[] = [];
    for (let c = 0; c < COMPONENTS; c++)
      for (let h = 0; h < 90 * 24; h += h < 24 ? 1 : 24)
        rows.push({
          monitorId: byKey[`c${c}`]!.id,
          checkedAt: now - h * HOUR_MS,
          ok: h % 29 !== c,
          degraded: false,
          latencyMs: 20 + ((h + c) % 30),
          message: null,
          error: null,
          data: { players: (h + c) % 40 },
          source: 'push',
          resultId: null,
        });
    await store.checks.write(rows, []);
  } finally {
    await store.close();
  }
}

function wardenEnv(dataDir: string, configFile: string, probeFile?: string): Record<string, string> {
  return {
    WARDEN_DATA_DIR: dataDir,
    WARDEN_CONFIG: configFile,
    // The pushes measure the durable path, not the per-token limit (a 429 would count against the figure).
    WARDEN_PUSH_RATE: '100000',
    WARDEN_PUSH_BURST: '1000000',
    // info: startWardenProcess reads the URL from the start-up line.
    LOG_LEVEL: 'info',
    NODE_OPTIONS: `${probeFile ? `--import=${PROBE}` : ''} ${EXTRA_NODE_OPTIONS}`.trim(),
    ...(probeFile ? { WARDEN_MEMORY_PROBE_FILE: probeFile } : {}),
  };
}

interface Row {
  label: string;
  path: string;
  /** Paths to take in turn (pushes over several tokens). */
  rotate?: string[];
  target?: number;
}

async function loadTable(seeded: string, configFile: string, dir: string): Promise<boolean> {
  const dataDir = join(dir, 'served');
  cpSync(seeded, dataDir, { recursive: true });
  const probeFile = join(dir, 'memory.json');
  const warden = await startWardenProcess(wardenEnv(dataDir, configFile, probeFile));
  const fixed = await startBaselineProcess(FIXED_JSON, { 'content-type': 'application/json' });
  let met = true;
  try {
    const pid = warden.process.pid as number;
    const pushPath = (token: string) => `/api/push/${token}?status=up&latency=3`;
    const rows: Row[] = [
      { label: `cached status JSON (${COMPONENTS} components)`, path: `/api/v1/status/${SLUG}` },
      { label: 'cached HTML page', path: `/s/${SLUG}` },
      { label: 'status.md', path: `/s/${SLUG}/status.md`, target: TARGETS.smallForms },
      { label: 'badge.svg', path: `/s/${SLUG}/badge.svg`, target: TARGETS.smallForms },
      {
        label: 'durable push, 100 tokens',
        path: pushPath(PUSH_TOKENS[0]!),
        rotate: PUSH_TOKENS.map(pushPath),
        target: TARGETS.push100,
      },
      { label: 'durable push, 1 token', path: pushPath(PUSH_TOKENS[0]!) },
    ];
    // Every form rendered once before the idle clock starts, as a page that readers found.
    for (const row of rows.slice(0, 4)) await (await fetch(warden.url + row.path)).arrayBuffer();
    await new Promise((r) => setTimeout(r, IDLE_SEC * 1000));
    const idle = await memory(pid, probeFile);

    console.log(
      `${'what'.padEnd(38)} ${'bytes'.padStart(7)} ${'bare 607 B'.padStart(10)} ${'bare same'.padStart(10)} ${'warden'.padStart(8)}  ratio (same bytes)  target`,
    );
    for (const row of rows) {
      const first = await fetch(warden.url + row.path);
      const body = Buffer.from(await first.arrayBuffer());
      const headers: Record<string, string> = {};
      for (const name of [
        'content-type',
        'etag',
        'cache-control',
        'vary',
        'access-control-allow-origin',
        'x-content-type-options',
        'x-request-id',
      ]) {
        const value = first.headers.get(name);
        if (value !== null) headers[name] = value;
      }
      const same = await startBaselineProcess(body, headers);
      try {
        await measure(fixed.url + row.path, 1);
        await measure(warden.url + row.path, 1, row.rotate);
        const bare607 = await measure(fixed.url + row.path, SECONDS);
        const bareSame = await measure(same.url + row.path, SECONDS, row.rotate);
        const ours = await measure(warden.url + row.path, SECONDS, row.rotate);
        const ratio = ours.requestsPerSec / bare607.requestsPerSec;
        const clean = ours.errors === 0 && ours.non2xx === 0;
        const ok = clean && (row.target === undefined || ratio >= row.target);
        met &&= ok;
        const rps = (r: LoadResult) => Math.round(r.requestsPerSec).toString().padStart(8);
        console.log(
          `${row.label.padEnd(38)} ${String(body.length).padStart(7)} ${rps(bare607).padStart(10)} ${rps(bareSame).padStart(10)} ${rps(ours)}  ${ratio.toFixed(2)} (${(ours.requestsPerSec / bareSame.requestsPerSec).toFixed(2)})`.padEnd(
            108,
          ) +
            `${row.target === undefined ? '' : `≥ ${row.target}`}${ok ? '' : clean ? '  MISSED' : `  ${ours.errors} errors, ${ours.non2xx} non-2xx`}`,
        );
        if (process.env.WARDEN_BENCH_VERBOSE) console.log(formatLoad(`  warden ${row.label}`, ours));
      } finally {
        await same.stop();
      }
    }
    const loaded = await memory(pid, probeFile);
    console.log('memory (MiB)         rss  heap used/total  code  external (arrayBuffers)  native rest');
    for (const [label, m] of [
      ['idle', idle],
      ['after load', loaded],
    ] as const)
      console.log(`${label.padEnd(18)} ${formatMemory(m)}`);
    const rssMet = idle.rss / MIB < TARGETS.rssIdleMiB && loaded.rss / MIB < TARGETS.rssLoadedMiB;
    console.log(
      `RSS idle (${IDLE_SEC} s after start) ${(idle.rss / MIB).toFixed(0)} MiB (target < ${TARGETS.rssIdleMiB}), after the load ${(loaded.rss / MIB).toFixed(0)} MiB (target < ${TARGETS.rssLoadedMiB})`,
    );
    return met && rssMet;
  } finally {
    await fixed.stop();
    await warden.stop();
  }
}

async function coldStarts(seeded: string, configFile: string, dir: string): Promise<{ warden: number; bare: number }> {
  const dataDir = join(dir, 'cold');
  cpSync(seeded, dataDir, { recursive: true });
  const env = { ...wardenEnv(dataDir, configFile), NODE_OPTIONS: EXTRA_NODE_OPTIONS };
  const path = `/api/v1/status/${SLUG}`;
  const bareScript = `require('node:http').createServer((q, s) => s.end('{}')).listen(process.env.PORT, '127.0.0.1')`;
  const warden: number[] = [];
  const bare: number[] = [];
  for (let i = 0; i < COLD_STARTS; i++) {
    warden.push(await timeToFirst200([...START_NODE_ARGS, BUNDLE, 'serve'], env, path));
    bare.push(await timeToFirst200(['-e', bareScript], {}, '/'));
  }
  const fresh = mkdtempSync(join(tmpdir(), 'warden-bench-fresh-'));
  try {
    const first = await timeToFirst200(
      [...START_NODE_ARGS, BUNDLE, 'serve'],
      { WARDEN_DATA_DIR: fresh, LOG_LEVEL: 'warn' },
      '/api/v1/status/demo',
    );
    console.log(
      `cold start on a fresh data dir (migrations, demo): ${first.toFixed(0)} ms; runs on the seeded one: ${warden.map((t) => t.toFixed(0)).join(', ')} ms`,
    );
  } finally {
    rmSync(fresh, { recursive: true, force: true });
  }
  return { warden: median(warden), bare: median(bare) };
}
