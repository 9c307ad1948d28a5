// The measures of the overview bench: a load run with wrk when installed (else autocannon), the server's memory as its
// probe reports it, and the median of several runs.
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { type LoadResult, load } from './load.js';
import { processUsage } from './processes.js';

export const CONNECTIONS = 50;
export const MIB = 1024 * 1024;
const run = promisify(execFile);
export const WRK = onPath('wrk');

export interface MemoryBreakdown {
  rss: number;
  heapUsed: number;
  heapTotal: number;
  code: number;
  external: number;
  arrayBuffers: number;
}

/** The server's RSS from /proc and, when the probe is preloaded, V8's view of it (written on SIGUSR2). */
export async function memory(pid: number, probeFile: string): Promise<MemoryBreakdown> {
  rmSync(probeFile, { force: true });
  process.kill(pid, 'SIGUSR2');
  const deadline = Date.now() + 10_000;
  while (!existsSync(probeFile) || statSync(probeFile).size === 0) {
    if (Date.now() > deadline) throw new Error('the memory probe did not answer');
    await new Promise((r) => setTimeout(r, 20));
  }
  const report = JSON.parse(readFileSync(probeFile, 'utf8')) as {
    usage: NodeJS.MemoryUsage;
    spaces: Record<string, { size: number; used: number }>;
  };
  const code = (report.spaces.code_space?.size ?? 0) + (report.spaces.code_large_object_space?.size ?? 0);
  return {
    rss: processUsage(pid).rss,
    heapUsed: report.usage.heapUsed,
    heapTotal: report.usage.heapTotal,
    code,
    external: report.usage.external,
    arrayBuffers: report.usage.arrayBuffers,
  };
}

export function formatMemory(m: MemoryBreakdown): string {
  const mib = (n: number) => (n / MIB).toFixed(1);
  return `${mib(m.rss).padStart(5)}  ${`${mib(m.heapUsed)}/${mib(m.heapTotal)}`.padStart(15)}  ${mib(m.code).padStart(4)}  ${`${mib(m.external)} (${mib(m.arrayBuffers)})`.padStart(23)}  ${mib(m.rss - m.heapTotal - m.external).padStart(11)}`;
}

export function onPath(command: string): boolean {
  return (process.env.PATH ?? '').split(':').some((dir) => {
    try {
      return statSync(join(dir, command)).isFile();
    } catch {
      return false;
    }
  });
}

/** One load run: wrk when installed (the issue's method), else autocannon (bench/load.ts). */
export async function measure(url: string, seconds: number, rotate?: string[]): Promise<LoadResult> {
  if (!WRK) {
    let next = 0;
    return load({
      url,
      connections: CONNECTIONS,
      durationSec: seconds,
      ...(rotate ? { setupRequest: (r) => ({ ...r, path: rotate[next++ % rotate.length] }) } : {}),
    });
  }
  const args = ['-t2', `-c${CONNECTIONS}`, `-d${seconds}s`, '--latency'];
  let script: string | undefined;
  if (rotate) {
    script = join(mkdtempSync(join(tmpdir(), 'warden-wrk-')), 'rotate.lua');
    writeFileSync(
      script,
      `local paths = {${rotate.map((p) => JSON.stringify(p)).join(',')}}\nlocal i = math.random(#paths)\nrequest = function()\n  i = i % #paths + 1\n  return wrk.format("GET", paths[i])\nend\n`,
    );
    args.push('-s', script);
  }
  try {
    const { stdout } = await run('wrk', [...args, url], { timeout: (seconds + 30) * 1000 });
    return parseWrk(stdout);
  } finally {
    if (script) rmSync(join(script, '..'), { recursive: true, force: true });
  }
}

export function parseWrk(out: string): LoadResult {
  const ms = (text: string | undefined) => {
    const m = /([\d.]+)(us|ms|s)/.exec(text ?? '');
    if (!m) return Number.NaN;
    return Number(m[1]) * (m[2] === 'us' ? 0.001 : m[2] === 's' ? 1000 : 1);
  };
  const socket = /Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)/.exec(out);
  return {
    requestsPerSec: Number(/Requests\/sec:\s+([\d.]+)/.exec(out)?.[1] ?? 0),
    p50Ms: ms(/50%\s+(\S+)/.exec(out)?.[1]),
    p99Ms: ms(/99%\s+(\S+)/.exec(out)?.[1]),
    total: Number(/(\d+) requests in/.exec(out)?.[1] ?? 0),
    errors: socket ? Number(socket[1]) + Number(socket[2]) + Number(socket[3]) + Number(socket[4]) : 0,
    non2xx: Number(/Non-2xx or 3xx responses: (\d+)/.exec(out)?.[1] ?? 0),
  };
}

export const median = (list: number[]) => [...list].sort((a, b) => a - b)[Math.floor(list.length / 2)] as number;
