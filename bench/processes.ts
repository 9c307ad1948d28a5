// Child processes for benchmarks: a Warden server and a bare node:http baseline serving given bytes, each on its own port.
import { type ChildProcess, spawn } from 'node:child_process';
import { closeSync, mkdtempSync, openSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** tsc's output of the CLI. */
export const CLI = fileURLToPath(new URL('../dist/cli/index.js', import.meta.url));
/** What `npm start`, the bin and the image run: the esbuild bundle (scripts/bundle.ts). */
export const BUNDLE = fileURLToPath(new URL('../dist/bundle/warden.js', import.meta.url));
/** The node options `npm start` gives the bundle (package.json's start script): a bench starts the server as it does. */
export const START_NODE_ARGS: string[] = (() => {
  const start = (
    JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { scripts: { start: string } }
  ).scripts.start.split(' ');
  return start.slice(1, start.indexOf('dist/bundle/warden.js'));
})();

export interface Child {
  url: string;
  process: ChildProcess;
  stop(): Promise<void>;
}

function waitForLine(child: ChildProcess, pattern: RegExp, what: string): Promise<RegExpExecArray> {
  return new Promise((resolve, reject) => {
    let out = '';
    const timer = setTimeout(() => reject(new Error(`${what} did not start:\n${out}`)), 30_000);
    const onData = (d: Buffer) => {
      out += d;
      const match = pattern.exec(out);
      if (match) {
        clearTimeout(timer);
        resolve(match);
      }
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
    child.once('exit', (code) => reject(new Error(`${what} exited with ${code}:\n${out}`)));
  });
}

function stopper(child: ChildProcess, cleanup = () => {}): () => Promise<void> {
  return () =>
    new Promise((resolve) => {
      child.once('exit', () => {
        cleanup();
        resolve();
      });
      child.kill('SIGTERM');
    });
}

/** Starts `warden serve` (built) with its own data directory; extra env picks the config or the database. */
export async function startWardenProcess(
  env: Record<string, string> = {},
  startNodeArgs: string[] = START_NODE_ARGS,
): Promise<Child & { dataDir: string; log(): string }> {
  const dataDir = env.WARDEN_DATA_DIR ?? mkdtempSync(join(tmpdir(), 'warden-bench-'));
  // WARDEN_BENCH_NODE_ARGS: node options NODE_OPTIONS refuses (--cpu-prof, --heap-prof), for profiling a bench's server.
  const nodeArgs = process.env.WARDEN_BENCH_NODE_ARGS?.split(' ').filter(Boolean) ?? [];
  // WARDEN_BENCH_STDOUT: a file for the server's stdout, where V8's --trace-gc, --trace-opt and --trace-deopt write.
  const stdout = process.env.WARDEN_BENCH_STDOUT ? openSync(process.env.WARDEN_BENCH_STDOUT, 'w') : 'ignore';
  const child = spawn(process.execPath, [...startNodeArgs, ...nodeArgs, BUNDLE, 'serve'], {
    env: { ...process.env, PORT: '0', HOST: '127.0.0.1', WARDEN_DATA_DIR: dataDir, LOG_LEVEL: 'info', ...env },
    stdio: ['ignore', stdout, 'pipe'],
  });
  if (typeof stdout === 'number') closeSync(stdout);
  // The tail of its log (benches read the lines it writes at the end).
  let log = '';
  child.stderr?.on('data', (d: Buffer) => {
    log += d;
    if (log.length > 1_000_000) log = log.slice(-500_000);
  });
  const match = await waitForLine(child, /"url":"(http:\/\/[^"]+)"/, 'warden');
  return {
    log: () => log,
    url: (match[1] as string).replace('localhost', '127.0.0.1'),
    process: child,
    dataDir,
    // A data directory the caller chose is the caller's to remove.
    stop: stopper(child, () => (env.WARDEN_DATA_DIR ? undefined : rmSync(dataDir, { recursive: true, force: true }))),
  };
}

/** A bare node:http server answering every request with the same bytes and headers: the baseline of a cached read. */
export async function startBaselineProcess(
  body: Buffer,
  headers: Record<string, string>,
  status = 200,
): Promise<Child> {
  const dir = mkdtempSync(join(tmpdir(), 'warden-baseline-'));
  const bodyFile = join(dir, 'body');
  writeFileSync(bodyFile, body);
  const script = `
    const http = require('node:http');
    const body = require('node:fs').readFileSync(${JSON.stringify(bodyFile)});
    const headers = ${JSON.stringify(headers)};
    const server = http.createServer((req, res) => {
      if (req.method === 'POST') { req.resume(); req.on('end', () => { res.writeHead(${status}, headers); res.end(body); }); return; }
      res.writeHead(${status}, headers); res.end(body);
    });
    server.keepAliveTimeout = 5000;
    server.listen(0, '127.0.0.1', () => console.log('listening ' + server.address().port));
    process.on('SIGTERM', () => server.close(() => process.exit(0)));
  `;
  const child = spawn(process.execPath, ['-e', script], { stdio: ['ignore', 'pipe', 'pipe'] });
  const match = await waitForLine(child, /listening (\d+)/, 'baseline');
  return {
    url: `http://127.0.0.1:${match[1]}`,
    process: child,
    stop: stopper(child, () => rmSync(dir, { recursive: true, force: true })),
  };
}

/** Resident memory (bytes) and CPU seconds (user + system) of a process, from /proc. */
export function processUsage(pid: number): { rss: number; cpuSeconds: number } {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const rss = Number(/VmRSS:\s+(\d+) kB/.exec(status)?.[1] ?? 0) * 1024;
  // Fields after the command name: utime and stime are the 14th and 15th (in clock ticks, 100 per second).
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return { rss, cpuSeconds: (Number(fields[11]) + Number(fields[12])) / 100 };
}

/** A port nobody listens on right now (on 127.0.0.1). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

/** Milliseconds from spawning `node ARGS` to its first 200 on `path` (polled every 2 ms); the process is stopped after. */
export async function timeToFirst200(args: string[], env: Record<string, string>, path: string): Promise<number> {
  const port = await freePort();
  const started = performance.now();
  const child = spawn(process.execPath, args, {
    env: { ...process.env, PORT: String(port), HOST: '127.0.0.1', ...env },
    stdio: 'ignore',
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  try {
    for (;;) {
      if (child.exitCode !== null)
        throw new Error(`${args.join(' ')} exited with ${child.exitCode} before answering 200`);
      if (performance.now() - started > 30_000) throw new Error(`${args.join(' ')} did not answer 200 within 30 s`);
      const ok = await fetch(`http://127.0.0.1:${port}${path}`, { signal: AbortSignal.timeout(2000) })
        .then(async (r) => {
          await r.arrayBuffer();
          return r.status === 200;
        })
        .catch(() => false);
      if (ok) return performance.now() - started;
      await new Promise((r) => setTimeout(r, 2));
    }
  } finally {
    child.kill('SIGTERM');
    await exited;
  }
}
