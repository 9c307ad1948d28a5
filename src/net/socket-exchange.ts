// How a probe holds one exchange over one socket: it settles once, stops on abort or at its timeout, and leaves nothing open.
import { createSocket, type Socket as UdpSocket } from 'node:dgram';
import { lookup } from 'node:dns/promises';
import type { EventEmitter } from 'node:events';
import type { ClientRequest } from 'node:http';
import { type ClientHttp2Session, connect as http2Connect } from 'node:http2';
import { connect, isIP, type Socket as TcpSocket } from 'node:net';
import { type ConnectionOptions, type TLSSocket, connect as tlsConnect } from 'node:tls';
import WebSocket, { type ClientOptions } from 'ws';
import type { NetContext } from './context.js';
import { bareHost, urlHost } from './hosts.js';
import { describeNetworkError, timedOutAfter } from './network-error.js';
import { dialFor, firstRefusal, refusedSocket } from './target-guard.js';

/** The sockets probes open: TCP, UDP, WebSocket, an HTTP request with the socket under it, and an HTTP/2 session. */
export type ProbeSocket = TcpSocket | UdpSocket | WebSocket | ClientRequest | ClientHttp2Session;

/** What the protocol code of a probe gets besides its socket. */
export interface SocketExchange<Outcome> {
  /** Ends the exchange with this outcome and tears the socket down; the first call wins, later ones do nothing. */
  finish(outcome: Outcome): void;
  /** True once the exchange has ended, by the protocol, the signal or the timeout. */
  readonly settled: boolean;
  /** A timer that is cleared when the exchange ends. */
  after(ms: number, run: () => void): NodeJS.Timeout;
  /** A repeating timer that is cleared when the exchange ends. */
  every(ms: number, run: () => void): NodeJS.Timeout;
  /** Another socket of the exchange (the TLS socket STARTTLS puts over the first): torn down with it when it ends. */
  adopt(other: ProbeSocket): void;
}

/**
 * Opens a socket and lets `talk` hold the exchange on it. The promise settles exactly once: with what `talk` passes to
 * finish, or with `onAbort` when the signal aborts or `timeoutMs` passes first. Either way the abort listener is removed,
 * the timers are cleared and the socket is torn down. With the signal already aborted nothing is opened.
 * A throw from `open` or from the synchronous part of `talk` rejects the promise, the socket torn down all the same.
 */
export function withSocket<Socket extends ProbeSocket, Outcome>(
  open: () => Socket,
  { signal, timeoutMs }: Pick<NetContext, 'signal' | 'timeoutMs'>,
  onAbort: Outcome | (() => Outcome),
  talk: (socket: Socket, exchange: SocketExchange<Outcome>) => void,
): Promise<Outcome> {
  const aborted = () => (typeof onAbort === 'function' ? (onAbort as () => Outcome)() : onAbort);
  if (signal.aborted) return Promise.resolve(aborted());
  return new Promise((resolve, reject) => {
    const socket = open();
    const timers = new Set<NodeJS.Timeout>();
    const adopted: ProbeSocket[] = [];
    let settled = false;
    const end = () => {
      settled = true;
      for (const timer of timers) clearTimeout(timer);
      signal.removeEventListener('abort', stop);
      for (const other of adopted) release(other);
      release(socket);
    };
    const finish = (outcome: Outcome) => {
      if (settled) return;
      end();
      resolve(outcome);
    };
    const stop = () => finish(aborted());
    const track = (timer: NodeJS.Timeout) => {
      timers.add(timer);
      return timer;
    };
    const exchange: SocketExchange<Outcome> = {
      finish,
      get settled() {
        return settled;
      },
      after: (ms, run) => track(setTimeout(run, ms)),
      every: (ms, run) => track(setInterval(run, ms)),
      adopt: (other) => {
        if (settled) release(other);
        else adopted.push(other);
      },
    };
    signal.addEventListener('abort', stop, { once: true });
    // The signal is the contract; this deadline keeps the promise bounded even for a caller whose signal never fires.
    exchange.after(timeoutMs, stop);
    try {
      talk(socket, exchange);
    } catch (error) {
      if (settled) return;
      end();
      reject(error);
    }
  });
}

/**
 * Waits for `work`, or stops waiting when the signal aborts and settles with `onAbort` instead: for steps such as
 * getaddrinfo or a library's query, which cannot be cancelled. With the signal already aborted, `work` is not started.
 */
export function untilAborted<T>(work: () => Promise<T>, signal: AbortSignal, onAbort: () => T): Promise<T> {
  if (signal.aborted) return Promise.resolve(onAbort());
  return new Promise((resolve, reject) => {
    const stop = () => resolve(onAbort());
    signal.addEventListener('abort', stop, { once: true });
    Promise.resolve()
      .then(work)
      .then(resolve, reject)
      .finally(() => signal.removeEventListener('abort', stop));
  });
}

declare const checked: unique symbol;
/** An address lookupHost resolved and the probe-target guard passed: the only kind openUdp connects to. */
export type CheckedAddress = { address: string; family: 4 | 6; readonly [checked]: true };
/** The address to connect to, or why there is none (`refused` when the probe-target guard refused it). */
export type HostAddress = CheckedAddress | { error: string; refused?: true };

/**
 * Looks a configured host up once, so that replies can be matched to the address asked and the socket connects to
 * that address with no second lookup; an IP address is taken as it is. Under a restricting guard every address the
 * name has is checked, and one refused address refuses the host.
 */
export function lookupHost(host: string, { signal, timeoutMs, guard }: NetContext): Promise<HostAddress> {
  const name = bareHost(host);
  const literal = isIP(name);
  if (literal !== 0) {
    const refused = guard.refusal(name);
    return Promise.resolve(refused ? { error: refused.message, refused: true } : checkedAddress(name, literal));
  }
  return untilAborted(
    () =>
      lookup(name, { all: true }).then(
        (addresses): HostAddress => {
          const refused = firstRefusal(guard, addresses);
          if (refused) return { error: refused.message, refused: true };
          const first = addresses[0];
          if (!first)
            return {
              error: describeNetworkError(Object.assign(new Error('not found'), { code: 'ENOTFOUND' }), timeoutMs),
            };
          return checkedAddress(first.address, first.family);
        },
        (error): HostAddress => ({ error: describeNetworkError(error, timeoutMs) }),
      ),
    signal,
    () => ({ error: timedOutAfter(timeoutMs) }),
  );
}

function checkedAddress(address: string, family: number): CheckedAddress {
  return { address, family: family === 6 ? 6 : 4 } as CheckedAddress;
}

/**
 * The one way a probe opens a UDP socket: connected to an address lookupHost checked (no lookup of its own), so the
 * kernel drops datagrams from anyone else and reports a closed port. It emits 'connect', or 'error'.
 */
export function openUdp(target: CheckedAddress, port: number): UdpSocket {
  const socket = createSocket(target.family === 6 ? 'udp6' : 'udp4');
  socket.connect(port, target.address);
  return socket;
}

/**
 * The one way a probe opens a TCP connection: to an IP literal the guard allows, or to a name through the guard's
 * lookup, which checks every resolved address before the socket connects to one of them. A refused target gives a
 * socket that fails with the refusal, like any connection error, and nothing is sent or read.
 */
export function openTcp({ guard }: Pick<NetContext, 'guard'>, host: string, port: number): TcpSocket {
  const dial = dialFor(guard, host);
  if ('refused' in dial) return refusedSocket(dial.refused);
  return connect({ host: bareHost(host), port, ...dial });
}

/**
 * The one way a probe opens a TLS connection, under the same guard as openTcp: `options` say how to verify (servername,
 * ca, rejectUnauthorized), never where to connect. The host goes with them, so Node checks the certificate against it
 * unless a servername is given.
 */
export function openTls(
  { guard }: Pick<NetContext, 'guard'>,
  host: string,
  port: number,
  options: Omit<ConnectionOptions, 'host' | 'port' | 'socket' | 'lookup' | 'path'>,
): TLSSocket {
  const dial = dialFor(guard, host);
  // A refused literal: the TLS socket wraps one that fails with the refusal before a byte is sent.
  if ('refused' in dial) return tlsConnect({ ...options, socket: refusedSocket(dial.refused) });
  return tlsConnect({ ...options, host: bareHost(host), port, ...dial });
}

/**
 * STARTTLS: TLS over a connection openTcp opened and the protocol has readied (SMTP, IMAP, POP3; NATS after its
 * INFO). `options` say how to verify, as for openTls, and `host` what name the certificate must carry; the new socket
 * must be adopted by the exchange that holds the old one.
 */
export function startTls(
  socket: TcpSocket,
  options: Omit<ConnectionOptions, 'host' | 'port' | 'socket' | 'lookup' | 'path'>,
  host?: string,
): TLSSocket {
  if (host === undefined) return tlsConnect({ ...options, socket });
  // The certificate is checked against `host`, sent as SNI unless it is an IP address; nothing is looked up.
  const name = bareHost(host);
  return tlsConnect({ ...(isIP(name) === 0 ? { servername: name } : {}), ...options, socket, host: name });
}

/**
 * The one way a probe opens an HTTP/2 session (gRPC): over a socket openTcp or openTls opened, so the session's own
 * name resolution never runs. With `tls`, ALPN asks for h2.
 */
export function openHttp2(
  ctx: Pick<NetContext, 'guard'>,
  host: string,
  port: number,
  tls?: Omit<ConnectionOptions, 'host' | 'port' | 'socket' | 'lookup' | 'path' | 'ALPNProtocols'>,
): ClientHttp2Session {
  const authority = `${tls ? 'https' : 'http'}://${urlHost(host)}:${port}`;
  const createConnection = () =>
    tls ? openTls(ctx, host, port, { ...tls, ALPNProtocols: ['h2'] }) : openTcp(ctx, host, port);
  // Header lists are bounded (16 KiB), as are the session's buffers (1 MB); no server push.
  return http2Connect(authority, {
    createConnection,
    maxSessionMemory: 1,
    settings: { enablePush: false, maxHeaderListSize: 16 * 1024 },
  });
}

/** The one way a probe opens a WebSocket (ws:// or wss://), under the same guard as openTcp. */
export function openWebSocket({ guard }: Pick<NetContext, 'guard'>, url: string, options: ClientOptions): WebSocket {
  const dial = dialFor(guard, new URL(url).hostname);
  // ws hands its options to http.request: a refused literal gets a connection that fails with the refusal.
  if ('refused' in dial) return new WebSocket(url, { ...options, createConnection: () => refusedSocket(dial.refused) });
  return new WebSocket(url, { ...options, ...dial });
}

function release(socket: ProbeSocket): void {
  socket.removeAllListeners();
  // A late error (a reset after we hung up, a send that was under way) must not become an uncaught exception.
  (socket as EventEmitter).on('error', () => {});
  try {
    if ('terminate' in socket) socket.terminate();
    else if ('destroy' in socket) socket.destroy();
    else socket.close();
  } catch {
    // A UDP socket already closed by a failed bind or connect: nothing left to release.
  }
}
