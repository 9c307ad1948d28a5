// A real relay agent for the end-to-end tests (`node dist/bundle/warden.js relay`), as a child process whose log can be
// waited on; a free port; and the result ids in an agent's queue file.
import { type ChildProcess, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import type { RelayResult } from '../src/relay/protocol.js';
import { QUEUE_FILE } from '../src/relay/queue.js';
import { CLI } from './cli-process.js';

export interface AgentProcess {
  child: ChildProcess;
  log(): string;
  /** Resolves once the agent has logged `text`; fails if it exits first or takes longer than `timeoutMs`. */
  waitFor(text: string, timeoutMs?: number): Promise<void>;
  stop(): Promise<number | null>;
}

export function startAgent(args: string[], env: Record<string, string>): AgentProcess {
  const child = spawn(process.execPath, [CLI, 'relay', ...args], {
    env: { ...process.env, LOG_LEVEL: 'info', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let log = '';
  let closed = false;
  const watchers = new Set<() => void>();
  const changed = () => {
    for (const watch of watchers) watch();
  };
  child.stdout?.on('data', (d) => {
    log += d;
    changed();
  });
  child.stderr?.on('data', (d) => {
    log += d;
    changed();
  });
  const exited = new Promise<number | null>((resolve) => child.on('exit', resolve));
  child.on('close', () => {
    closed = true;
    changed();
  });
  return {
    child,
    log: () => log,
    waitFor(text, timeoutMs = 10_000) {
      return new Promise<void>((resolve, reject) => {
        const finish = (error?: Error) => {
          clearTimeout(timer);
          watchers.delete(watch);
          if (error) reject(error);
          else resolve();
        };
        const watch = () => {
          if (log.includes(text)) finish();
          else if (closed) finish(new Error(`the agent exited without logging "${text}":\n${log}`));
        };
        const timer = setTimeout(
          () => finish(new Error(`the agent did not log "${text}" within ${timeoutMs} ms:\n${log}`)),
          timeoutMs,
        );
        watchers.add(watch);
        watch();
      });
    },
    async stop() {
      child.kill('SIGTERM');
      return exited;
    },
  };
}

export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** The results in an agent's queue file (held ones, and delivered ones it has not compacted away yet), by monitor and id. */
export function queuedResultKeys(dataDir: string): { monitorId: string; resultId: string }[] {
  let text: string;
  try {
    text = readFileSync(join(dataDir, QUEUE_FILE), 'utf8');
  } catch {
    return [];
  }
  // Only complete lines: the agent may be appending one as we read.
  return text
    .split('\n')
    .slice(0, -1)
    .map((line) => JSON.parse(line) as RelayResult)
    .flatMap((r) => (typeof r.id === 'string' ? [{ monitorId: r.monitorId, resultId: r.id }] : []));
}
