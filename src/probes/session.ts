// How a probe hands a connection to a client library (pg, mysql2, mqtt, amqplib): the probe opens the socket through
// the target guard and waits for it, the library speaks its protocol over it, and the probe keeps the deadline, caps
// what is read and tears everything down, whatever the library does.
import type { Socket } from 'node:net';
import { describeNetworkError, timedOutAfter } from '../net/network-error.js';
import { openTcp, untilAborted } from '../net/socket-exchange.js';
import { isTargetRefused } from '../net/target-guard.js';
import { ANSWER_LIMITS } from './answer.js';
import { type Failure, stopwatch } from './exchange.js';
import type { ProbeContext, ProbeFn, ProbeResult } from './probe.js';

/**
 * The probe of a type whose client library speaks over a socket the probe opened: it times the check from the start,
 * opens the connection to the config's host and port (openConnected) and hands it to `session`.
 */
export function overConnection<Config extends { host: string; port: number }>(
  session: (socket: Socket, config: Config, ctx: ProbeContext, elapsed: () => number) => Promise<ProbeResult>,
): ProbeFn<Config> {
  return async (config, ctx) => {
    const elapsed = stopwatch();
    const opened = await openConnected(ctx, config.host, config.port);
    if ('error' in opened) return { ok: false, error: opened.error };
    return session(opened.socket, config, ctx, elapsed);
  };
}

/**
 * Opens a TCP connection through the target guard (openTcp: a refused target fails at once, a name is looked up and
 * checked once) and resolves once it is connected, or with why it is not: refused, unreachable, or out of time.
 */
export function openConnected(ctx: ProbeContext, host: string, port: number): Promise<{ socket: Socket } | Failure> {
  if (ctx.signal.aborted) return Promise.resolve({ error: timedOutAfter(ctx.timeoutMs) });
  return new Promise((resolve) => {
    const socket = openTcp(ctx, host, port);
    const done = (outcome: { socket: Socket } | Failure) => {
      socket.removeListener('connect', connected);
      socket.removeListener('error', failed);
      ctx.signal.removeEventListener('abort', abort);
      if ('error' in outcome) {
        socket.on('error', () => {});
        socket.destroy();
      }
      resolve(outcome);
    };
    const connected = () => done({ socket });
    const failed = (error: Error) => done({ error: describeNetworkError(error, ctx.timeoutMs) });
    const abort = () => done({ error: timedOutAfter(ctx.timeoutMs) });
    socket.once('connect', connected);
    socket.once('error', failed);
    ctx.signal.addEventListener('abort', abort, { once: true });
  });
}

/**
 * Destroys the socket once more than `maxBytes` have arrived on it; `exceeded()` then says so. It counts what arrives
 * in the clear: after a library starts TLS over the socket, the TLS socket it made must be capped too.
 */
export function capReads(socket: Socket, maxBytes: number = ANSWER_LIMITS.readBytes): { exceeded(): boolean } {
  let bytes = 0;
  let over = false;
  socket.on('data', (chunk: Buffer) => {
    bytes += chunk.length;
    if (bytes > maxBytes && !over) {
      over = true;
      // The library hears of it through its own listener; a library that has stopped listening must not crash the process.
      socket.on('error', () => {});
      socket.destroy(new Error(`the server sent more than ${Math.round(maxBytes / 1024)} KiB`));
    }
  });
  return { exceeded: () => over };
}

export const readCapError = (maxBytes: number = ANSWER_LIMITS.readBytes) =>
  `the server sent more than ${Math.round(maxBytes / 1024)} KiB`;

/**
 * Runs a library's exchange over `socket`. On abort (the timeout, or shutdown) the socket is destroyed and the outcome
 * is the timeout; a library error becomes a failure in plain words (`describe` first, for the library's own errors).
 * Either way `close` is called (not awaited: a server that stopped answering must not hold the probe) and the socket
 * is destroyed.
 */
export async function overSocket<T>(
  socket: Socket,
  ctx: ProbeContext,
  work: () => Promise<T>,
  close: () => unknown,
  describe: (error: unknown) => string | undefined = () => undefined,
): Promise<T | Failure> {
  const cap = capReads(socket);
  const timedOut = () => ({ error: timedOutAfter(ctx.timeoutMs) });
  try {
    return await untilAborted<T | Failure>(work, ctx.signal, timedOut);
  } catch (error) {
    if (ctx.signal.aborted) return timedOut();
    if (cap.exceeded()) return { error: readCapError() };
    if (isTargetRefused(error)) return { error: (error as Error).message };
    return { error: describe(error) ?? describeNetworkError(error, ctx.timeoutMs) };
  } finally {
    try {
      Promise.resolve(close()).catch(() => {});
    } catch {
      // A client that throws on close has nothing more to close.
    }
    socket.on('error', () => {});
    socket.destroy();
  }
}
