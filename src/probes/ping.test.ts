// The ping monitor: the system ping against 127.0.0.1 and an unreachable TEST-NET address, stand-ins for hosts that
// forbid ICMP or have no ping, and the output of iputils and BusyBox (TCP mode: ping-tcp.test.ts).
import { beforeAll, describe, expect, it } from 'vitest';
import { leakedResources, quietResources } from '../../test/fakes/handles.js';
import { fakePing, PING_OUTPUTS, withPathFirst } from '../../test/fakes/ping-commands.js';
import { probeDirectly, runThrough } from '../../test/fakes/probe-runs.js';
import { lookupHost } from '../net/socket-exchange.js';
import { ANY_TARGET, PUBLIC_TARGETS_ONLY } from '../net/target-guard.js';
import { ping } from './ping.js';
import { parsePingOutput, readRun, runPing } from './ping-command.js';

/** TEST-NET-3 (RFC 5737): never routed, so echo requests there go unanswered (or a router says it is unreachable). */
const UNREACHABLE = '203.0.113.7';

function check(config: Record<string, unknown>, timeoutMs = 3000, signal?: AbortSignal) {
  return probeDirectly(ping, config, timeoutMs, signal ?? AbortSignal.timeout(timeoutMs));
}

describe('the ping output parser', () => {
  it('reads the summary of an iputils ping', () => {
    expect(parsePingOutput(PING_OUTPUTS.iputilsUp)).toEqual({
      sent: 3,
      received: 3,
      rtt: { min: 0.042, avg: 0.061, max: 0.1 },
    });
    expect(parsePingOutput(PING_OUTPUTS.iputilsPartial)).toEqual({
      sent: 4,
      received: 3,
      rtt: { min: 24.113, avg: 25.337, max: 26.912 },
    });
  });

  it('reads a total loss, and what the network said instead of a reply', () => {
    expect(parsePingOutput(PING_OUTPUTS.iputilsUnreachable)).toEqual({
      sent: 2,
      received: 0,
      unreachable: 'destination port unreachable',
    });
    expect(parsePingOutput(PING_OUTPUTS.iputilsSilent)).toEqual({ sent: 3, received: 0 });
    expect(parsePingOutput(PING_OUTPUTS.iputilsV6Unreachable)).toEqual({
      sent: 2,
      received: 0,
      unreachable: 'destination unreachable: address unreachable',
    });
  });

  it('reads the summary of a BusyBox ping, duplicates counted apart', () => {
    expect(parsePingOutput(PING_OUTPUTS.busyboxUp)).toEqual({
      sent: 3,
      received: 3,
      rtt: { min: 0.06, avg: 0.076, max: 0.094 },
    });
    expect(parsePingOutput(PING_OUTPUTS.busyboxDuplicates)).toEqual({
      sent: 1,
      received: 1,
      rtt: { min: 0.512, avg: 0.622, max: 0.733 },
    });
    expect(parsePingOutput(PING_OUTPUTS.busyboxLost)).toEqual({ sent: 3, received: 0 });
  });

  it('finds no summary in anything else', () => {
    expect(parsePingOutput('')).toBeUndefined();
    expect(parsePingOutput('PING 127.0.0.1 (127.0.0.1) 56(84) bytes of data.\n')).toBeUndefined();
  });

  it('tells a forbidding host from a broken ping', () => {
    for (const stderr of [PING_OUTPUTS.iputilsForbidden, PING_OUTPUTS.busyboxForbidden]) {
      const run = readRun('', stderr, 2);
      expect(run).toMatchObject({
        ok: false,
        forbidden: true,
        error: expect.stringMatching(
          /^this host does not allow ICMP echo \(ping: .*\): .*cap_net_raw.*ping_group_range.*mode: tcp$/,
        ),
      });
    }
    expect(readRun('', 'ping: unknown iface eth9\n', 2)).toEqual({
      ok: false,
      error: 'ping failed: ping: unknown iface eth9',
    });
    expect(readRun('', '', null)).toEqual({
      ok: false,
      error: 'ping ended without a summary (exit code none: killed)',
    });
  });
});

describe('ping in icmp mode, with the system ping', () => {
  /** Why real ICMP cannot be tested here, or undefined when it can. */
  let unavailable: string | undefined;
  beforeAll(async () => {
    const target = await lookupHost('127.0.0.1', {
      signal: AbortSignal.timeout(2000),
      timeoutMs: 2000,
      guard: ANY_TARGET,
    });
    if (!('address' in target)) throw new Error(target.error);
    const run = await runPing({ target, count: 1, intervalMs: 500, waitSec: 1, signal: AbortSignal.timeout(3000) });
    if (run === 'aborted' || !run.ok) unavailable = run === 'aborted' ? 'ping did not answer within 3 s' : run.error;
    if (unavailable)
      console.warn(`ping.test.ts: real ICMP is not possible on this machine, its cases are skipped: ${unavailable}`);
  });

  it('is up on 127.0.0.1, with round-trip times and no loss', async (ctx) => {
    if (unavailable) return ctx.skip(unavailable);
    const result = await check({ host: '127.0.0.1' });
    expect(result).toMatchObject({
      ok: true,
      message: expect.stringMatching(/^3\/3 answered, [\d.]+ ms average \([\d.]+–[\d.]+ ms\)$/),
    });
    expect(result.degraded).toBeUndefined();
    expect(result.data).toMatchObject({ address: '127.0.0.1', mode: 'icmp', sent: 3, received: 3, lossPercent: 0 });
    const { rttMinMs, rttAvgMs, rttMaxMs } = result.data as Record<string, number>;
    expect(rttMinMs).toBeLessThanOrEqual(rttAvgMs as number);
    expect(rttAvgMs).toBeLessThanOrEqual(rttMaxMs as number);
    expect(result.latencyMs).toBe(Math.round(rttAvgMs as number));
  });

  it('is down on an unreachable TEST-NET address: 100% packet loss', async (ctx) => {
    if (unavailable) return ctx.skip(unavailable);
    const started = performance.now();
    const result = await check({ host: UNREACHABLE, count: 2 }, 2500);
    expect(result).toMatchObject({
      ok: false,
      error: expect.stringMatching(/^no reply to 2 pings \(100% packet loss\)/),
    });
    expect(result.data).toMatchObject({ address: UNREACHABLE, sent: 2, received: 0, lossPercent: 100 });
    // Half a second between the two, a second's wait for the last: well within the timeout.
    expect(performance.now() - started).toBeLessThan(2500);
  });

  it('stops ping at its timeout and leaves no process, pipe or timer behind', async (ctx) => {
    if (unavailable) return ctx.skip(unavailable);
    const before = await quietResources();
    const controller = new AbortController();
    const pending = check({ host: UNREACHABLE, count: 10 }, 5000, controller.signal);
    setTimeout(() => controller.abort(), 200);
    expect(await pending).toEqual({ ok: false, error: 'timed out after 5 s' });
    expect(await leakedResources(before)).toEqual({});
  });
});

describe('ping in icmp mode, on hosts that cannot ping', () => {
  it('says clearly when the host forbids ICMP echo, suggesting the TCP mode', async () => {
    for (const stderr of [PING_OUTPUTS.iputilsForbidden, PING_OUTPUTS.busyboxForbidden]) {
      const fake = fakePing({ stderr, exitCode: 2 });
      try {
        const result = await withPathFirst(fake.dir, () => check({ host: '127.0.0.1' }));
        expect(result).toEqual({
          ok: false,
          error: expect.stringMatching(/^this host does not allow ICMP echo .*; or use mode: tcp$/),
        });
      } finally {
        fake.remove();
      }
    }
  });

  it('says so when no ping command is installed', async () => {
    const saved = process.env.PATH;
    // A PATH of one folder that does not exist: no ping anywhere.
    process.env.PATH = '/nonexistent/warden-test';
    try {
      expect(await check({ host: '127.0.0.1' })).toEqual({
        ok: false,
        error: expect.stringMatching(
          /^the ping command is not installed on this host \(.*iputils-ping\); or use mode: tcp$/,
        ),
      });
    } finally {
      process.env.PATH = saved;
    }
  });

  it('gives ping the checked address, never the name, and reads a partial loss as degraded above the threshold', async () => {
    const fake = fakePing({ stdout: PING_OUTPUTS.iputilsPartial });
    try {
      const lossy = await withPathFirst(fake.dir, () => check({ host: 'localhost', count: 4 }));
      expect(lossy).toMatchObject({
        ok: true,
        degraded: true,
        latencyMs: 25,
        message: '3/4 answered, 25% loss, 25.34 ms average (24.11–26.91 ms)',
      });
      const tolerated = await withPathFirst(fake.dir, () =>
        check({ host: 'localhost', count: 4, degradedLossPercent: 25 }),
      );
      expect(tolerated).toMatchObject({ ok: true, message: '3/4 answered, 25.34 ms average (24.11–26.91 ms)' });
      expect(tolerated.degraded).toBeUndefined();
      for (const args of fake.runs()) {
        expect(args).toMatch(/^-n -c 4 -i 0\.5 -W \d+ -- (127\.0\.0\.1|::1)$/);
        expect(args).not.toContain('localhost');
      }
    } finally {
      fake.remove();
    }
  });

  it('is refused under deny without running ping', async () => {
    const fake = fakePing({ stdout: PING_OUTPUTS.iputilsUp });
    try {
      for (const host of ['127.0.0.1', 'localhost', '169.254.169.254']) {
        const result = await withPathFirst(fake.dir, () => runThrough(ping, { host }, 3000, PUBLIC_TARGETS_ONLY));
        expect(result).toEqual({
          ok: false,
          error: expect.stringMatching(
            /^refused: \S+ is a (loopback|cloud metadata) address; this organization's probes may reach public addresses only/,
          ),
        });
      }
      expect(fake.runs()).toEqual([]);
    } finally {
      fake.remove();
    }
  });

  it('kills a ping that hangs at the timeout, leaving nothing behind', async () => {
    const fake = fakePing({ hangSec: 30 });
    try {
      const before = await quietResources();
      const result = await withPathFirst(fake.dir, () => runThrough(ping, { host: '127.0.0.1' }, 500));
      expect(result).toEqual({ ok: false, error: 'timed out after 0.5 s' });
      expect(await leakedResources(before)).toEqual({});
    } finally {
      fake.remove();
    }
  });
});
