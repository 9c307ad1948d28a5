// The processes the image recipe check runs: commands with a time limit, a free port, a server's first 200, and the
// Dockerfile's durations ("30s").
import { type ChildProcess, execFile } from 'node:child_process';
import { createServer } from 'node:net';

/** A Dockerfile duration ("500ms", "30s", "1m") in milliseconds. */
export function durationMs(text: string): number {
  const match = /^(\d+(?:\.\d+)?)(ms|s|m)$/.exec(text);
  if (!match) throw new Error(`unreadable duration ${text}`);
  return Number(match[1]) * { ms: 1, s: 1000, m: 60_000 }[match[2] as 'ms' | 's' | 'm'];
}

/** Polls `url` until it answers 200; fails when the server exits first or `budgetMs` passes. */
export async function waitFor200(url: string, exited: Promise<unknown>, budgetMs: number): Promise<void> {
  const deadline = Date.now() + budgetMs;
  let gone = false;
  void exited.then(() => {
    gone = true;
  });
  for (;;) {
    if (gone) throw new Error(`the server exited before ${url} answered`);
    try {
      const response = await fetch(url);
      await response.arrayBuffer();
      if (response.status === 200) return;
    } catch {}
    if (Date.now() > deadline) throw new Error(`${url} did not answer 200 within ${budgetMs / 1000} s`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** Runs a command to its end; its standard error's tail is the failure's message. */
export function exec(
  command: string,
  args: string[],
  options: { cwd: string; env: Record<string, string>; timeoutMs?: number },
): Promise<void> {
  return new Promise((resolve, reject) => {
    const child: ChildProcess = execFile(
      command,
      args,
      { cwd: options.cwd, env: options.env, timeout: options.timeoutMs ?? 0, maxBuffer: 64 * 1024 * 1024 },
      (error, _stdout, stderr) => {
        if (error) reject(new Error(`${command} ${args.join(' ')}: ${error.message}\n${String(stderr).slice(-4000)}`));
        else resolve();
      },
    );
    child.stdin?.end();
  });
}

/** A TCP port free on 127.0.0.1 now. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      probe.close(() =>
        typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port')),
      );
    });
  });
}
