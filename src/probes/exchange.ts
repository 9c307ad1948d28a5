// What most probes do around their one exchange: time it, and end it at the deadline with the usual words.
import type { Socket as TcpSocket } from 'node:net';
import { timedOutAfter } from '../net/network-error.js';
import {
  type CheckedAddress,
  lookupHost,
  openTcp,
  type ProbeSocket,
  type SocketExchange,
  withSocket,
} from '../net/socket-exchange.js';
import type { ProbeContext, ProbeFn, ProbeResult } from './probe.js';

/** A failure already in words. */
export type Failure = { error: string };

/** Starts timing; each call of what it returns gives the milliseconds since, rounded. */
export function stopwatch(): () => number {
  const started = performance.now();
  return () => Math.round(performance.now() - started);
}

/**
 * withSocket for a probe whose exchange ends in its result: out of time, the check failed with "timed out after …".
 * The stopwatch starts as the socket opens; `elapsed` gives the milliseconds since.
 */
export function probeOver<Socket extends ProbeSocket>(
  open: () => Socket,
  ctx: ProbeContext,
  talk: (socket: Socket, exchange: SocketExchange<ProbeResult>, elapsed: () => number) => void,
): Promise<ProbeResult> {
  const elapsed = stopwatch();
  return withSocket<Socket, ProbeResult>(
    open,
    ctx,
    { ok: false, error: timedOutAfter(ctx.timeoutMs) },
    (socket, exchange) => talk(socket, exchange, elapsed),
  );
}

/** probeOver a TCP connection to the configured host and port. */
export function probeOverTcp(
  config: { host: string; port: number },
  ctx: ProbeContext,
  talk: (socket: TcpSocket, exchange: SocketExchange<ProbeResult>, elapsed: () => number) => void,
): Promise<ProbeResult> {
  return probeOver(() => openTcp(ctx, config.host, config.port), ctx, talk);
}

/** withSocket for an exchange whose outcome the probe judges afterwards: out of time, a failure "timed out after …". */
export function exchangeOver<Socket extends ProbeSocket, Outcome>(
  open: () => Socket,
  ctx: ProbeContext,
  talk: (socket: Socket, exchange: SocketExchange<Outcome | Failure>) => void,
): Promise<Outcome | Failure> {
  return withSocket<Socket, Outcome | Failure>(open, ctx, { error: timedOutAfter(ctx.timeoutMs) }, talk);
}

/**
 * A probe of the address `config.host` resolves to, looked up once (lookupHost): its sockets connect to that checked
 * address (and match replies to it), never to a name looked up again. A failed or refused lookup is the check's error.
 */
export function atAddress<Config extends { host: string }>(
  probe: (config: Config, ctx: ProbeContext, address: CheckedAddress) => Promise<ProbeResult>,
): ProbeFn<Config> {
  return async (config, ctx) => {
    const address = await lookupHost(config.host, ctx);
    if ('error' in address) return { ok: false, error: address.error };
    return probe(config, ctx, address);
  };
}
