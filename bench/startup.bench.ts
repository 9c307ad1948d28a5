// `npm run bench startup`: how soon a spawned server answers, and how long a CLI command takes from spawn to exit.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { BUNDLE, CLI, START_NODE_ARGS, timeToFirst200 } from './processes.js';
import type { Benchmark } from './run.js';

const SPAWNS = 5;
const TARGET_MS = 350;
/** The README's CLI invocation (`./warden`, the shim in front of the bundle) must finish a command within this. */
const CLI_TARGET_MS = 500;
const CLI_RUNS = 7;
/** What the README tells operators to type. */
const SHIM = fileURLToPath(new URL('../warden', import.meta.url));
const CHECKED_CONFIG = `organization: { name: Bench }
monitors:
  - { key: web, name: Web, type: http, intervalSec: 30, config: { url: "https://example.com/healthz" } }
  - { key: port, name: Port, type: tcp, intervalSec: 30, config: { host: example.com, port: 25565 } }
pages:
  - { slug: status, title: Status, components: [{ name: Web, monitor: web }, { name: Port, monitor: port }] }
`;
const PATH = '/api/v1/status/demo';
const BARE = "require('node:http').createServer((q, s) => s.end('{}')).listen(Number(process.env.PORT), '127.0.0.1')";

type Starter = { label: string; args: string[] };
const STARTERS: Starter[] = [
  { label: 'bare node:http', args: ['-e', BARE] },
  { label: 'warden (bundle, npm start)', args: [...START_NODE_ARGS, BUNDLE, 'serve'] },
  { label: 'warden (tsc output)', args: [CLI, 'serve'] },
];

export const benchmark: Benchmark = {
  name: 'startup',
  description: `cold start, spawn → first 200 on ${PATH}, median of ${SPAWNS} (target < ${TARGET_MS} ms), vs bare node:http; CLI commands, spawn → exit, median of ${CLI_RUNS} (target < ${CLI_TARGET_MS} ms), vs bare node`,
  async run() {
    let met = await cliStarts();
    for (const fresh of [false, true]) {
      const medians = await medianStarts(fresh);
      const bare = medians[0] as number;
      console.log(`${fresh ? 'fresh data dir' : 'existing data dir'}:`);
      STARTERS.forEach((starter, i) => {
        const ms = medians[i] as number;
        console.log(
          `  ${starter.label.padEnd(28)} ${ms.toFixed(0).padStart(5)} ms${i === 0 ? '' : `  (${(ms / bare).toFixed(1)}× bare)`}`,
        );
      });
      // The target is the production start on an existing data directory (a fresh one also pays for the migrations).
      if (!fresh) met &&= (medians[1] as number) < TARGET_MS;
    }
    return met;
  },
};

/** Each starter's median; the starters interleaved, so that a busy moment of the machine falls on all of them alike. */
async function medianStarts(fresh: boolean): Promise<number[]> {
  const kept = STARTERS.map(() => mkdtempSync(join(tmpdir(), 'warden-startup-')));
  try {
    // A first start migrates the kept directories and warms the file cache.
    for (const [i, starter] of STARTERS.entries()) await timeStart(starter, kept[i] as string);
    const times: number[][] = STARTERS.map(() => []);
    for (let round = 0; round < SPAWNS; round++)
      for (const [i, starter] of STARTERS.entries()) {
        const dir = fresh ? mkdtempSync(join(tmpdir(), 'warden-startup-')) : (kept[i] as string);
        try {
          times[i]?.push(await timeStart(starter, dir));
        } finally {
          if (fresh) rmSync(dir, { recursive: true, force: true });
        }
      }
    return times.map((list) => list.sort((a, b) => a - b)[Math.floor(list.length / 2)] as number);
  } finally {
    for (const dir of kept) rmSync(dir, { recursive: true, force: true });
  }
}

/** Milliseconds from spawn to the first 200 on PATH, then the process is stopped. */
function timeStart(starter: Starter, dataDir: string): Promise<number> {
  return timeToFirst200(starter.args, { WARDEN_DATA_DIR: dataDir, LOG_LEVEL: 'error' }, PATH);
}

/**
 * `./warden --version`, `config check FILE` (reads and validates a file) and `monitors list` (opens the database), spawn
 * to exit, against `node -e ''` spawned the same way: interleaved, so that a busy moment falls on all of them alike.
 */
async function cliStarts(): Promise<boolean> {
  const dir = mkdtempSync(join(tmpdir(), 'warden-cli-startup-'));
  try {
    const env = { WARDEN_DATA_DIR: dir, LOG_LEVEL: 'warn' };
    const config = join(dir, 'warden.yaml');
    writeFileSync(config, CHECKED_CONFIG);
    const runs: { label: string; command: string; args: string[] }[] = [
      { label: "bare node -e ''", command: process.execPath, args: ['-e', ''] },
      { label: './warden --version', command: SHIM, args: ['--version'] },
      { label: './warden config check FILE', command: SHIM, args: ['config', 'check', config] },
      { label: './warden monitors list', command: SHIM, args: ['monitors', 'list'] },
    ];
    // The database the last command opens: migrated, with the file's organization and monitors in it.
    await timeExit(SHIM, ['config', 'apply', config], env);
    // A first round warms the file cache.
    for (const run of runs) await timeExit(run.command, run.args, env);
    const times: number[][] = runs.map(() => []);
    for (let round = 0; round < CLI_RUNS; round++)
      for (const [i, run] of runs.entries()) times[i]?.push(await timeExit(run.command, run.args, env));
    const medians = times.map((list) => list.sort((a, b) => a - b)[Math.floor(list.length / 2)] as number);
    const bare = medians[0] as number;
    console.log('CLI commands (spawn → exit):');
    runs.forEach((run, i) => {
      const ms = medians[i] as number;
      console.log(
        `  ${run.label.padEnd(28)} ${ms.toFixed(0).padStart(5)} ms${i === 0 ? '' : `  (${(ms / bare).toFixed(1)}× bare)`}`,
      );
    });
    return medians.slice(1).every((ms) => ms < CLI_TARGET_MS);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Milliseconds from spawning a command to its exit; one that fails stops the benchmark with what it said. */
function timeExit(command: string, args: string[], env: Record<string, string>): Promise<number> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn(command, args, { env: { ...process.env, ...env }, stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => (stderr += d));
    child.once('error', reject);
    child.once('exit', (code) => {
      const ms = performance.now() - started;
      if (code === 0) resolve(ms);
      else reject(new Error(`${command} ${args.join(' ')} exited with ${code}: ${stderr}`));
    });
  });
}
