// Programs a probe runs (the system's ping) are started by a small helper process, not by the server itself. Node
// starts a program by forking: the fork copies the page tables of the whole process, and until the program replaces
// it, every page the server writes is copied again (copy on write). For a server holding 150–300 MB and busy, that was
// 2 ms of its CPU per ping at rest and far more under load, its event loop held meanwhile (docs/monitors.md). The
// helper is a Node process of a few tens of MB that does nothing else: its forks are cheap and hold up nobody. It is
// started on the first run, with no environment but PATH, and ends when its parent does (its channel closes).
import { type ChildProcess, spawn } from 'node:child_process';

/** One program to run: its output kept up to `outputBytes` per stream; stdout beyond it kills the program. */
export interface LaunchRequest {
  command: string;
  args: readonly string[];
  /** The program's whole environment (nothing of the server's is passed otherwise). */
  env: Record<string, string>;
  outputBytes: number;
  signal: AbortSignal;
}

export type Launched =
  | { kind: 'exited'; code: number | null; stdout: string; stderr: string }
  /** stdout passed `outputBytes`: the program was killed. */
  | { kind: 'overflow' }
  /** The program could not be started (`code`: ENOENT, EACCES…), or the helper could not run it. */
  | { kind: 'failed'; code?: string; message: string };

type HelperMessage = { id: number } & Launched;

/**
 * The helper's code (CommonJS, run with `node -e`): a `run` message starts a program and answers once, when it ends;
 * `kill` kills it. Its output is capped here, so no more than the cap crosses the channel.
 */
const HELPER = `
const { spawn } = require('node:child_process');
const running = new Map();
process.on('message', (m) => {
  if (m.t === 'kill') return void running.get(m.id)?.kill('SIGKILL');
  let done = false;
  const answer = (message) => {
    if (done) return;
    done = true;
    running.delete(m.id);
    if (process.connected) process.send({ id: m.id, ...message });
  };
  let child;
  try {
    child = spawn(m.command, m.args, { env: m.env, stdio: ['ignore', 'pipe', 'pipe'] });
  } catch (error) {
    return answer({ kind: 'failed', code: error.code, message: error.message });
  }
  running.set(m.id, child);
  const out = [[], []];
  const size = [0, 0];
  let over = false;
  const take = (i) => (chunk) => {
    size[i] += chunk.length;
    if (size[i] <= m.cap) return void out[i].push(chunk);
    if (i === 0 && !over) { over = true; child.kill('SIGKILL'); }
  };
  child.stdout.on('data', take(0));
  child.stderr.on('data', take(1));
  child.on('error', (error) => answer({ kind: 'failed', code: error.code, message: error.message }));
  child.on('close', (code) =>
    answer(over ? { kind: 'overflow' } : {
      kind: 'exited', code,
      stdout: Buffer.concat(out[0]).toString('utf8'),
      stderr: Buffer.concat(out[1]).toString('utf8'),
    }));
});
process.on('disconnect', () => {
  for (const child of running.values()) child.kill('SIGKILL');
  process.exit(0);
});
`;

/** The helper's heap is small: it holds a few programs' output at once. */
export const HELPER_ARGS = ['--max-old-space-size=16', '--max-semi-space-size=1', '--single-threaded', '-e', HELPER];

interface Helper {
  child: ChildProcess;
  /** Its runs under way, each settled once. */
  waiting: Map<number, (outcome: Launched) => void>;
}

let helper: Helper | undefined;
let nextId = 0;

/** The helper, started if it is not running. Its channel keeps this process alive only while a run is under way. */
function running(): Helper {
  if (helper?.child.connected) return helper;
  const child = spawn(process.execPath, HELPER_ARGS, {
    stdio: ['ignore', 'ignore', 'ignore', 'ipc'],
    env: { PATH: process.env.PATH ?? '/usr/bin:/bin' },
  });
  const started: Helper = { child, waiting: new Map() };
  child.on('message', (message: HelperMessage) => {
    const settle = started.waiting.get(message.id);
    if (!settle) return;
    started.waiting.delete(message.id);
    settle(message);
    if (started.waiting.size === 0) child.channel?.unref();
  });
  // Its runs fail with the reason; the next launch starts another helper.
  const gone = (why: string) => {
    if (helper === started) helper = undefined;
    const runs = [...started.waiting.values()];
    started.waiting.clear();
    for (const settle of runs) settle({ kind: 'failed', message: why });
  };
  child.on('error', (error) => gone(`the helper process that runs it failed: ${error.message}`));
  child.on('exit', (code, signal) => gone(`the helper process that runs it ended (${signal ?? `exit code ${code}`})`));
  child.unref();
  helper = started;
  return started;
}

/**
 * Runs a program through the helper. Settles once: with its exit and output, `overflow`, `failed`, or `aborted` when
 * the signal fires first (the program is killed).
 */
export function launch(request: LaunchRequest): Promise<Launched | 'aborted'> {
  if (request.signal.aborted) return Promise.resolve('aborted');
  const { child, waiting } = running();
  const id = ++nextId;
  return new Promise((resolve) => {
    const abort = () => {
      if (!waiting.delete(id)) return;
      if (child.connected) child.send({ t: 'kill', id });
      if (waiting.size === 0) child.channel?.unref();
      resolve('aborted');
    };
    waiting.set(id, (outcome) => {
      request.signal.removeEventListener('abort', abort);
      resolve(outcome);
    });
    request.signal.addEventListener('abort', abort, { once: true });
    child.channel?.ref();
    const run = {
      t: 'run',
      id,
      command: request.command,
      args: request.args,
      env: request.env,
      cap: request.outputBytes,
    };
    child.send(run, (error) => {
      if (!error) return;
      const settle = waiting.get(id);
      waiting.delete(id);
      settle?.({ kind: 'failed', message: `the helper process that runs it failed: ${error.message}` });
    });
  });
}

/** The helper's process id while it runs (for tests). */
export function launcherPid(): number | undefined {
  return helper?.child.connected ? helper.child.pid : undefined;
}
