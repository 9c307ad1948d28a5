// Runs the built `warden` CLI as a real child process, for end-to-end tests.
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/** The bundled command `npm start` and the image run (scripts/bundle.ts): what operators start, and quicker to start. */
export const CLI = fileURLToPath(new URL('../dist/bundle/warden.js', import.meta.url));

if (!existsSync(CLI)) throw new Error(`${CLI} is missing: run \`npm run build\` (npm test does it) before these tests`);

export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs `warden …`; `input`, when given, is its standard input (else it has none). */
export function runCli(
  args: string[],
  env: Record<string, string> = {},
  timeoutMs = 20_000,
  input?: string,
): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CLI, ...args], {
      env: { ...process.env, LOG_LEVEL: 'warn', ...env },
      stdio: [input === undefined ? 'ignore' : 'pipe', 'pipe', 'pipe'],
    });
    child.stdin?.end(input);
    let stdout = '';
    let stderr = '';
    child.stdout?.on('data', (d) => (stdout += d));
    child.stderr?.on('data', (d) => (stderr += d));
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`warden ${args.join(' ')} did not finish in ${timeoutMs} ms\n${stderr}`));
    }, timeoutMs);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

export interface ServerProcess {
  child: ChildProcess;
  url: string;
  /** Everything the server wrote to stderr (its JSON log) so far. */
  log(): string;
  /** Sends a signal and resolves with the exit code and how long the exit took. */
  stop(signal?: NodeJS.Signals): Promise<{ code: number | null; ms: number }>;
}

/** Starts `warden serve` (`cli`: another checkout's launcher) on a free port; resolves once it logs that it listens. */
export function startServer(args: string[] = [], env: Record<string, string> = {}, cli = CLI): Promise<ServerProcess> {
  return new Promise((resolve, reject) => {
    // WARDEN_BENCH_NODE_ARGS (bench/processes.ts): node options such as --cpu-prof, for profiling a cluster's processes.
    const nodeArgs = process.env.WARDEN_BENCH_NODE_ARGS?.split(' ').filter(Boolean) ?? [];
    const child = spawn(process.execPath, [...nodeArgs, cli, 'serve', ...args], {
      env: { ...process.env, PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'info', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let log = '';
    const exited = new Promise<number | null>((done) => child.on('exit', (code) => done(code)));
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`the server did not start:\n${log}`));
    }, 20_000);
    child.stdout.on('data', (d) => (log += d));
    child.stderr.on('data', (d: Buffer) => {
      log += d;
      const match = /"url":"(http:\/\/[^"]+)"/.exec(log);
      if (match && timer) {
        clearTimeout(timer);
        resolve({
          child,
          url: (match[1] as string).replace('localhost', '127.0.0.1'),
          log: () => log,
          async stop(signal = 'SIGTERM') {
            const started = Date.now();
            child.kill(signal);
            const code = await exited;
            return { code, ms: Date.now() - started };
          },
        });
      }
    });
    child.on('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`the server exited with ${code}:\n${log}`));
    });
  });
}
