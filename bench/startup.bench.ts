
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BUNDLE, CLI, START_NODE_ARGS, timeToFirst200 } from './processes.js';
import type { Benchmark } from './run.js';

const SPAWNS = 5;
const TARGET_MS = 350;
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

/** Milliseconds from spawn to the first 200 on PATH, then the process is stopped. */
function timeStart(starter: Starter, dataDir: string): Promise<number> {
  return timeToFirst200(starter.args, { WARDEN_DATA_DIR: dataDir, LOG_LEVEL: 'error' }, PATH);
}
