// Cold start: spawn → first 200 on GET /api/v1/status/demo, for the bundle `npm start` runs and the tsc output, against a
// bare node:http server spawned the same way in the same run; on an existing data directory and on a fresh one.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { CLI } from './processes.js';
import type { Benchmark } from './run.js';

const SPAWNS = 5;
const TARGET_MS = 350;
const BUNDLE = fileURLToPath(new URL('../dist/bundle/warden.js', import.meta.url));
const PATH = '/api/v1/status/demo';
const BARE = "require('node:http').createServer((q, s) => s.end('{}')).listen(Number(process.env.PORT), '127.0.0.1')";

type Starter = { label: string; args: string[] };
const STARTERS: Starter[] = [
  { label: 'bare node:http', args: ['-e', BARE] },
  { label: 'warden (bundle, npm start)', args: [BUNDLE, 'serve'] },
  { label: 'warden (tsc output)', args: [CLI, 'serve'] },
];

export const benchmark: Benchmark = {
  name: 'startup',
  description: `cold start, spawn → first 200 on ${PATH}, median of ${SPAWNS} (target < ${TARGET_MS} ms), vs bare node:http`,
  async run() {
    let met = true;
    for (const fresh of [false, true]) {
      const medians = await medianStarts(fresh);
      const bare = medians[0] as number;
      console.log(`${fresh ? 'fresh data dir' : 'existing data dir'}:`);
      STARTERS.forEach((starter, i) => {
        const ms = medians[i] as number;
        console.log(`  ${starter.label.padEnd(28)} ${ms.toFixed(0).padStart(5)} ms${i === 0 ? '' : `  (${(ms / bare).toFixed(1)}× bare)`}`);
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

/** Milliseconds from spawn to the first 200 on PATH (polled every 2 ms), then the process is stopped. */
async function timeStart(starter: Starter, dataDir: string): Promise<number> {
  const port = await freePort();
  const started = performance.now();
  const child = spawn(process.execPath, starter.args, {
    env: { ...process.env, PORT: String(port), HOST: '127.0.0.1', WARDEN_DATA_DIR: dataDir, LOG_LEVEL: 'error' },
    stdio: 'ignore',
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  try {
    for (;;) {
      if (child.exitCode !== null) throw new Error(`${starter.label} exited with ${child.exitCode} before answering`);
      if (performance.now() - started > 30_000) throw new Error(`${starter.label} did not answer within 30 s`);
      const status = await fetch(`http://127.0.0.1:${port}${PATH}`).then(
        async (answer) => {
          await answer.arrayBuffer();
          return answer.status;
        },
        () => 0,
      );
      if (status === 200) return performance.now() - started;
      await new Promise((resolve) => setTimeout(resolve, 2));
    }
  } finally {
    child.kill('SIGTERM');
    await exited;
  }
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}
