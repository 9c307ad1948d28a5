// `npm run bench tricks`: does each V8 and glibc start-up or memory trick still pay? The server as shipped (`npm start`)
// against the same server without one trick at a time, interleaved round by round so that a busy moment of the machine
// falls on all of them alike: cold start (spawn → first 200, against bare node:http in the same round), RSS after an
// idle spell and after a fixed load, and the server's CPU per request under that load (from /proc, which a loaded
// machine disturbs far less than requests per second). The decisions it supports are in docs/operations.md, Memory.
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PUSH_TOKENS, SLUG, seedDataDir } from './overview.bench.js';
import { measure, median } from './overview-measure.js';
import { BUNDLE, processUsage, START_NODE_ARGS, startWardenProcess, timeToFirst200 } from './processes.js';
import type { Benchmark } from './run.js';

/** Rounds (each runs every variant once); WARDEN_BENCH_ROUNDS=1 for a quick run. */
const ROUNDS = Number(process.env.WARDEN_BENCH_ROUNDS ?? 3);
/** The idle spell before the idle RSS is read; V8's memory reducer runs in it (as in the overview). */
const IDLE_SEC = Number(process.env.WARDEN_BENCH_IDLE_SEC ?? 20);
/** Seconds of each load (status.md reads, then pushes over 100 tokens). */
const SECONDS = Number(process.env.WARDEN_BENCH_SECONDS ?? 4);
const MIB = 1024 * 1024;
const BARE = "require('node:http').createServer((q, s) => s.end('{}')).listen(Number(process.env.PORT), '127.0.0.1')";

interface Variant {
  label: string;
  /** Node's options before the bundle (START_NODE_ARGS as shipped). */
  nodeArgs: string[];
  env: Record<string, string>;
}

/** What the shipped server runs with, then each trick taken away alone. */
const VARIANTS: Variant[] = [
  { label: 'as shipped (npm start)', nodeArgs: START_NODE_ARGS, env: {} },
  {
    label: 'without --v8-pool-size=0',
    nodeArgs: START_NODE_ARGS.filter((a) => !a.startsWith('--v8-pool-size')),
    env: {},
  },
  { label: 'young generation uncapped', nodeArgs: START_NODE_ARGS, env: { WARDEN_YOUNG_GENERATION_MB: '0' } },
  { label: 'heap growth V8’s own', nodeArgs: START_NODE_ARGS, env: { WARDEN_HEAP_GROWTH_PERCENT: '0' } },
  { label: 'tick shape not pinned', nodeArgs: START_NODE_ARGS, env: { WARDEN_TICK_SHAPE_PIN: '0' } },
  { label: 'no code cache', nodeArgs: START_NODE_ARGS, env: { WARDEN_CODE_CACHE: '0' } },
  {
    label: 'with the image’s MALLOC_*',
    nodeArgs: START_NODE_ARGS,
    env: { MALLOC_ARENA_MAX: '2', MALLOC_TRIM_THRESHOLD_: '131072' },
  },
];

interface Sample {
  startMs: number;
  bareStartMs: number;
  idleMiB: number;
  loadedMiB: number;
  readCpuUs: number;
  pushCpuUs: number;
}

export const benchmark: Benchmark = {
  name: 'tricks',
  description: `each V8/glibc trick taken away alone vs the server as shipped: cold start, RSS idle (${IDLE_SEC} s) and after load, CPU per request; ${ROUNDS} rounds, medians`,
  async run() {
    const dir = mkdtempSync(join(tmpdir(), 'warden-bench-tricks-'));
    try {
      const config = join(dir, 'warden.yaml');
      const seeded = join(dir, 'seeded');
      await seedDataDir(seeded, config);
      const samples = VARIANTS.map((): Sample[] => []);
      for (let round = 0; round < ROUNDS; round++)
        for (const [i, variant] of VARIANTS.entries()) {
          const dataDir = join(dir, `round-${round}-${i}`);
          cpSync(seeded, dataDir, { recursive: true });
          samples[i]?.push(await sample(variant, dataDir, config));
          rmSync(dataDir, { recursive: true, force: true });
        }
      report(samples);
      return true;
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  },
};

async function sample(variant: Variant, dataDir: string, configFile: string): Promise<Sample> {
  const env = {
    WARDEN_DATA_DIR: dataDir,
    WARDEN_CONFIG: configFile,
    WARDEN_PUSH_RATE: '100000',
    WARDEN_PUSH_BURST: '1000000',
    ...variant.env,
  };
  const path = `/api/v1/status/${SLUG}`;
  const bareStartMs = await timeToFirst200(['-e', BARE], {}, '/');
  const startMs = await timeToFirst200([...variant.nodeArgs, BUNDLE, 'serve'], { ...env, LOG_LEVEL: 'warn' }, path);
  const warden = await startWardenProcess(env, variant.nodeArgs);
  try {
    const pid = warden.process.pid as number;
    for (const form of ['', '/status.md', '/badge.svg'])
      await (await fetch(`${warden.url}/s/${SLUG}${form}`)).arrayBuffer();
    await new Promise((resolve) => setTimeout(resolve, IDLE_SEC * 1000));
    const idle = processUsage(pid);
    const perRequest = async (url: string, rotate?: string[]) => {
      const before = processUsage(pid).cpuSeconds;
      const result = await measure(url, SECONDS, rotate);
      return ((processUsage(pid).cpuSeconds - before) * 1e6) / Math.max(1, result.total);
    };
    const readCpuUs = await perRequest(`${warden.url}/s/${SLUG}/status.md`);
    const pushes = PUSH_TOKENS.map((token) => `/api/push/${token}?status=up&latency=3`);
    const pushCpuUs = await perRequest(`${warden.url}${pushes[0]}`, pushes);
    const loaded = processUsage(pid);
    return { startMs, bareStartMs, idleMiB: idle.rss / MIB, loadedMiB: loaded.rss / MIB, readCpuUs, pushCpuUs };
  } finally {
    await warden.stop();
  }
}

function report(samples: Sample[][]): void {
  const of = (i: number, key: keyof Sample) => median((samples[i] ?? []).map((s) => s[key]));
  const delta = (value: number, shipped: number, digits = 0) =>
    `${value.toFixed(digits)} (${value >= shipped ? '+' : ''}${(value - shipped).toFixed(digits)})`;
  console.log(
    `${'variant'.padEnd(30)} ${'start ms (× bare)'.padStart(20)} ${'RSS idle'.padStart(13)} ${'RSS loaded'.padStart(13)} ${'µs CPU/read'.padStart(13)} ${'µs CPU/push'.padStart(13)}`,
  );
  for (const [i, variant] of VARIANTS.entries()) {
    const start = of(i, 'startMs');
    const ratio = start / of(i, 'bareStartMs');
    const cells =
      i === 0
        ? [
            `${start.toFixed(0)} (${ratio.toFixed(1)}×)`,
            of(0, 'idleMiB').toFixed(1),
            of(0, 'loadedMiB').toFixed(1),
            of(0, 'readCpuUs').toFixed(0),
            of(0, 'pushCpuUs').toFixed(0),
          ]
        : [
            `${delta(start, of(0, 'startMs'))} ${ratio.toFixed(1)}×`,
            delta(of(i, 'idleMiB'), of(0, 'idleMiB'), 1),
            delta(of(i, 'loadedMiB'), of(0, 'loadedMiB'), 1),
            delta(of(i, 'readCpuUs'), of(0, 'readCpuUs')),
            delta(of(i, 'pushCpuUs'), of(0, 'pushCpuUs')),
          ];
    console.log(
      `${variant.label.padEnd(30)} ${cells[0]?.padStart(20)} ${cells[1]?.padStart(13)} ${cells[2]?.padStart(13)} ${cells[3]?.padStart(13)} ${cells[4]?.padStart(13)}`,
    );
  }
  console.log('(a positive difference in a row is what taking that trick away costs)');
}
