// Ping: a few ICMP echo requests through the system's ping, or TCP connections to a port (mode: tcp), with round-trip
// times and packet loss; degraded above a loss threshold, down when nothing answers.
import type { Socket } from 'node:net';
import { z } from 'zod';
import { describeNetworkError, timedOutAfter } from '../net/network-error.js';
import { type CheckedAddress, openTcp, withSocket } from '../net/socket-exchange.js';
import { atAddress } from './exchange.js';
import { host, port } from './fields.js';
import { PING_COMMAND_LIMITS, type PingSummary, runPing } from './ping-command.js';
import { defineProbe, type ProbeContext, type ProbeResult } from './probe.js';

/** Bounds of a ping check. */
export const PING_LIMITS = {
  count: { min: 1, max: 10, default: 3 },
  /** Between two echo requests (or connections): above iputils' 200 ms floor for unprivileged users. */
  intervalMs: 500,
  /** Kept back from the timeout for ping to print its summary and exit. */
  marginMs: 250,
} as const;

const COUNT_MESSAGE = `expected a whole number of pings from ${PING_LIMITS.count.min} to ${PING_LIMITS.count.max}`;
const LOSS_MESSAGE = 'expected a whole percentage from 0 to 99';

export const pingConfig = z
  .object({
    host: host(),
    mode: z
      .enum(['icmp', 'tcp'])
      .default('icmp')
      .describe(
        'icmp: echo requests through the system ping; tcp: connections to `port`, where ICMP is blocked or forbidden.',
      ),
    port: port().optional().describe('The port to connect to in tcp mode.'),
    count: z
      .number({ error: COUNT_MESSAGE })
      .int({ error: COUNT_MESSAGE })
      .min(PING_LIMITS.count.min, { error: COUNT_MESSAGE })
      .max(PING_LIMITS.count.max, { error: COUNT_MESSAGE })
      .default(PING_LIMITS.count.default)
      .describe('Echo requests (or connections) per check, half a second apart.'),
    degradedLossPercent: z
      .number({ error: LOSS_MESSAGE })
      .int({ error: LOSS_MESSAGE })
      .min(0, { error: LOSS_MESSAGE })
      .max(99, { error: LOSS_MESSAGE })
      .default(0)
      .describe('Show the monitor as degraded when more than this share of the pings is lost; all lost is down.'),
  })
  .strict()
  .refine((c) => c.mode !== 'tcp' || c.port !== undefined, { path: ['port'], error: 'tcp mode needs a port' });

export type PingConfig = z.output<typeof pingConfig>;

export const ping = defineProbe({
  id: 'ping',
  label: 'Ping',
  config: pingConfig,
  // The name is resolved and checked here, once: ping and the connections get the checked address, never the name.
  probe: atAddress(async (config, ctx, target) => {
    const outcome =
      config.mode === 'tcp' ? await connectRepeatedly(target, config, ctx) : await echo(target, config, ctx);
    if (outcome === 'aborted') return { ok: false, error: timedOutAfter(ctx.timeoutMs) };
    if ('error' in outcome) return { ok: false, error: outcome.error };
    return verdict(outcome, config, target);
  }),
});

type Outcome = PingSummary | { error: string } | 'aborted';

/** How long to wait for the last answer: what the timeout leaves once every request is sent, within bounds. */
function waitMs(config: PingConfig, timeoutMs: number): number {
  const left = timeoutMs - (config.count - 1) * PING_LIMITS.intervalMs - PING_LIMITS.marginMs;
  return Math.min(PING_COMMAND_LIMITS.maxWaitSec * 1000, Math.max(100, left));
}

async function echo(target: CheckedAddress, config: PingConfig, ctx: ProbeContext): Promise<Outcome> {
  const waitSec = Math.max(1, Math.floor(waitMs(config, ctx.timeoutMs) / 1000));
  const run = await runPing({
    target,
    count: config.count,
    intervalMs: PING_LIMITS.intervalMs,
    waitSec,
    signal: ctx.signal,
  });
  if (run === 'aborted') return 'aborted';
  return run.ok ? run.summary : { error: run.error };
}

/** TCP's stand-in for echo: `count` connections, half a second apart, each timed to its handshake; a failed one is lost. */
async function connectRepeatedly(target: CheckedAddress, config: PingConfig, ctx: ProbeContext): Promise<Outcome> {
  const port = config.port as number;
  const attemptMs = waitMs(config, ctx.timeoutMs);
  const attempts = Array.from({ length: config.count }, async (_, i) => {
    if (!(await pause(i * PING_LIMITS.intervalMs, ctx.signal))) return undefined;
    return connectOnce(target, port, ctx, attemptMs);
  });
  const results = await Promise.all(attempts);
  if (ctx.signal.aborted) return 'aborted';
  const times = results.flatMap((r) => (r !== undefined && 'rttMs' in r ? [r.rttMs] : []));
  const failure = results.find((r): r is { error: string } => r !== undefined && 'error' in r);
  const summary: PingSummary = { sent: config.count, received: times.length };
  if (times.length > 0)
    summary.rtt = {
      min: Math.min(...times),
      avg: times.reduce((a, b) => a + b, 0) / times.length,
      max: Math.max(...times),
    };
  if (failure) summary.unreachable = failure.error;
  return summary;
}

function connectOnce(
  target: CheckedAddress,
  port: number,
  ctx: ProbeContext,
  attemptMs: number,
): Promise<{ rttMs: number } | { error: string }> {
  const started = performance.now();
  const open = () => openTcp(ctx, target.address, port);
  return withSocket<Socket, { rttMs: number } | { error: string }>(
    open,
    { signal: ctx.signal, timeoutMs: attemptMs },
    { error: timedOutAfter(attemptMs) },
    (socket, { finish }) => {
      socket.once('connect', () => finish({ rttMs: performance.now() - started }));
      socket.once('error', (error) => finish({ error: describeNetworkError(error, attemptMs) }));
    },
  );
}

/** Waits `ms`, or less when the signal aborts; true when the wait ran its course. No timer outlives it. */
function pause(ms: number, signal: AbortSignal): Promise<boolean> {
  if (signal.aborted) return Promise.resolve(false);
  if (ms === 0) return Promise.resolve(true);
  return new Promise((resolve) => {
    const done = (ran: boolean) => {
      clearTimeout(timer);
      signal.removeEventListener('abort', stop);
      resolve(ran);
    };
    const stop = () => done(false);
    const timer = setTimeout(() => done(true), ms);
    signal.addEventListener('abort', stop, { once: true });
  });
}

function verdict(summary: PingSummary, config: PingConfig, target: CheckedAddress): ProbeResult {
  const { sent, received, rtt } = summary;
  // Duplicates can make received exceed sent; a loss is never negative.
  const lossPercent = sent === 0 ? 100 : Math.max(0, Math.round(((sent - received) / sent) * 100));
  const data: Record<string, unknown> = { address: target.address, mode: config.mode, sent, received, lossPercent };
  if (received === 0 || !rtt) {
    const reason = summary.unreachable ? `: ${summary.unreachable}` : '';
    const error =
      config.mode === 'tcp'
        ? `no connection to port ${config.port} in ${sent} attempt${sent === 1 ? '' : 's'}${reason}`
        : `no reply to ${sent} ping${sent === 1 ? '' : 's'} (100% packet loss)${reason}`;
    return { ok: false, error, data };
  }
  data.rttMinMs = round(rtt.min);
  data.rttAvgMs = round(rtt.avg);
  data.rttMaxMs = round(rtt.max);
  const times = `${round(rtt.avg)} ms average (${round(rtt.min)}–${round(rtt.max)} ms)`;
  const latencyMs = Math.round(rtt.avg);
  if (lossPercent > config.degradedLossPercent)
    return {
      ok: true,
      latencyMs,
      degraded: true,
      message: `${received}/${sent} answered, ${lossPercent}% loss, ${times}`,
      data,
    };
  return { ok: true, latencyMs, message: `${received}/${sent} answered, ${times}`, data };
}

function round(ms: number): number {
  return Math.round(ms * 100) / 100;
}
