// The launcher: programs a probe runs (the system's ping) start as children of a helper process, never of the server;
// their output is capped, a hung one is killed, and a helper that dies fails its runs and is started again.
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { fakePing, PING_OUTPUTS, withPathFirst } from '../../test/fakes/ping-commands.js';
import { probeDirectly } from '../../test/fakes/probe-runs.js';
import { HELPER_ARGS, launch, launcherPid } from './launcher.js';
import { ping } from './ping.js';

function check(config: Record<string, unknown>, timeoutMs = 3000) {
  return probeDirectly(ping, config, timeoutMs, AbortSignal.timeout(timeoutMs));
}

/** Whether a process of this id still runs (a zombie, ended but not yet reaped by whoever inherited it, does not). */
function alive(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) !== 'Z';
  } catch {
    return false;
  }
}

async function gone(pid: number, withinMs = 2000): Promise<boolean> {
  const deadline = performance.now() + withinMs;
  while (alive(pid)) {
    if (performance.now() > deadline) return false;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return true;
}

describe('the launcher', () => {
  it('runs ping as a child of its helper process, not of the server', async () => {
    const fake = fakePing({ stdout: PING_OUTPUTS.iputilsUp });
    try {
      for (let i = 0; i < 3; i++)
        expect(await withPathFirst(fake.dir, () => check({ host: '127.0.0.1' }))).toMatchObject({ ok: true });
      const helper = launcherPid();
      expect(helper).toBeGreaterThan(0);
      expect(helper).not.toBe(process.pid);
      // The same helper ran all three.
      expect(fake.processes().map((p) => p.parent)).toEqual([helper, helper, helper]);
    } finally {
      fake.remove();
    }
  });

  it('kills a program that hangs when the check times out', async () => {
    const fake = fakePing({ hangSec: 30 });
    try {
      const result = await withPathFirst(fake.dir, () => check({ host: '127.0.0.1' }, 500));
      expect(result).toEqual({ ok: false, error: 'timed out after 0.5 s' });
      const [run] = fake.processes();
      expect(await gone(run?.pid as number)).toBe(true);
    } finally {
      fake.remove();
    }
  });

  it('caps what ping prints, killing it past the cap', async () => {
    const fake = fakePing({ stdout: `${'64 bytes from 127.0.0.1: icmp_seq=1 ttl=64 time=0.04 ms\n'.repeat(1200)}` });
    try {
      expect(await withPathFirst(fake.dir, () => check({ host: '127.0.0.1' }))).toEqual({
        ok: false,
        error: 'ping printed more than 64 KiB (a broadcast address answering many times?)',
      });
    } finally {
      fake.remove();
    }
  });

  it('fails the runs of a helper that dies, saying so, and starts another for the next', async () => {
    const hanging = fakePing({ hangSec: 30 });
    const answering = fakePing({ stdout: PING_OUTPUTS.iputilsUp });
    try {
      const pending = withPathFirst(hanging.dir, () => check({ host: '127.0.0.1' }, 5000));
      // Once the program runs, its helper is killed under it.
      while (hanging.processes().length === 0) await new Promise((resolve) => setTimeout(resolve, 10));
      const first = launcherPid() as number;
      process.kill(first, 'SIGKILL');
      expect(await pending).toEqual({
        ok: false,
        error: 'cannot run ping: the helper process that runs it ended (SIGKILL)',
      });
      expect(await withPathFirst(answering.dir, () => check({ host: '127.0.0.1' }))).toMatchObject({ ok: true });
      expect(launcherPid()).not.toBe(first);
      expect(answering.processes()[0]?.parent).toBe(launcherPid());
      process.kill(hanging.processes()[0]?.pid as number, 'SIGKILL');
    } finally {
      hanging.remove();
      answering.remove();
    }
  });

  it('answers at once for a signal already aborted, starting nothing', async () => {
    const outcome = await launch({
      command: 'ping',
      args: [],
      env: {},
      outputBytes: 1024,
      signal: AbortSignal.abort(),
    });
    expect(outcome).toBe('aborted');
  });

  it('ends its helper, and what it runs, when the server ends (its channel closes)', async () => {
    const fake = fakePing({ hangSec: 30 });
    try {
      const helper = spawn(process.execPath, HELPER_ARGS, { stdio: ['ignore', 'ignore', 'ignore', 'ipc'] });
      helper.send({ t: 'run', id: 1, command: `${fake.dir}/ping`, args: ['-n'], env: {}, cap: 1024 });
      while (fake.processes().length === 0) await new Promise((resolve) => setTimeout(resolve, 10));
      helper.disconnect();
      expect(await gone(helper.pid as number)).toBe(true);
      expect(await gone(fake.processes()[0]?.pid as number)).toBe(true);
    } finally {
      fake.remove();
    }
  });
});
