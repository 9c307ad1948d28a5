// The live streams' open sockets: the hub's view of one (subscriberFor), pings that cut the silent, the close at shutdown
// within a grace, leaving the organization's stream on close, and how many streams the process's descriptors allow.
import { readFileSync } from 'node:fs';
import { WebSocket, WebSocketServer } from 'ws';
import { type Logger, logFailure } from '../logger.js';
import type { LiveSubscriber } from '../services/live/hub.js';
import { parseDescriptorLimit } from '../services/live/limits.js';

/**
 * The hub's view of one socket. A client whose unsent bytes already pass the cap is cut at once (terminate, not a
 * close frame that would queue behind the backlog): it cannot keep up, and buffering for it would cost the server
 * memory without end. Everyone else gets the same Buffer; ws frames it without copying (no mask, no compression).
 */
export function subscriberFor(
  ws: Pick<WebSocket, 'readyState' | 'bufferedAmount' | 'send' | 'close' | 'terminate'>,
  maxBufferedBytes: number,
  logger: Logger,
): LiveSubscriber {
  return {
    send(bytes) {
      if (ws.readyState !== WebSocket.OPEN) return;
      if (ws.bufferedAmount > maxBufferedBytes) {
        logger.debug({ buffered: ws.bufferedAmount }, 'live client too slow: disconnected');
        ws.terminate();
        return;
      }
      ws.send(bytes, { binary: false });
    },
    close(code, reason) {
      if (ws.readyState === WebSocket.OPEN || ws.readyState === WebSocket.CONNECTING) ws.close(code, reason);
    },
  };
}

/** The process's soft limit on open files, as it is now (Node raises it to the hard limit when it starts). */
export function descriptorLimit(): number {
  try {
    return parseDescriptorLimit(readFileSync('/proc/self/limits', 'utf8'));
  } catch {
    return parseDescriptorLimit(null);
  }
}

/** The upgrades' server. No compression: every client gets the very bytes the hub serialized once, nothing per client. */
export function liveSocketServer(maxPayload: number): WebSocketServer {
  return new WebSocketServer({ noServer: true, clientTracking: false, perMessageDeflate: false, maxPayload });
}

/** The open sockets: each pinged with the others (cut when it missed the last pong), its errors logged. */
export function trackSockets(pingIntervalMs: number, logger: Logger) {
  const sockets = new Map<WebSocket, { alive: boolean }>();
  const pinger = pingEach(sockets, pingIntervalMs);
  return {
    add(ws: WebSocket): void {
      const state = { alive: true };
      sockets.set(ws, state);
      ws.on('pong', () => {
        state.alive = true;
      });
      ws.on('error', (error) => logger.debug({ err: error }, 'live socket error'));
    },
    delete: (ws: WebSocket) => sockets.delete(ws),
    size: () => sockets.size,
    /** Stops the pings; the sockets open now. */
    stop(): WebSocket[] {
      clearInterval(pinger);
      return [...sockets.keys()];
    },
  };
}

/** Pings every socket each interval; one that did not answer the last ping is cut. */
function pingEach(sockets: Map<WebSocket, { alive: boolean }>, intervalMs: number): NodeJS.Timeout {
  const pinger = setInterval(() => {
    for (const [ws, state] of sockets) {
      // No pong since the last ping: the peer is gone (or hopelessly slow) and only the kernel does not know yet.
      if (!state.alive) ws.terminate();
      else {
        state.alive = false;
        ws.ping();
      }
    }
  }, intervalMs);
  pinger.unref();
  return pinger;
}

/** Asks the hubs to close their streams (`closeAll`), waits for the sockets at most `graceMs`, then cuts the rest. */
export async function closeWithin(open: WebSocket[], graceMs: number, closeAll: () => void): Promise<void> {
  const closed = Promise.all(
    open.map(
      (ws) =>
        new Promise<void>((resolve) =>
          ws.readyState === WebSocket.CLOSED ? resolve() : ws.once('close', () => resolve()),
        ),
    ),
  );
  closeAll();
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([closed, new Promise<void>((resolve) => (timer = setTimeout(resolve, graceMs)))]);
  clearTimeout(timer);
  for (const ws of open) ws.terminate();
  await closed;
}

/** Leaves the organization's stream when the socket closes, whether it closed before or after the join resolved. */
export function leaveOnClose(ws: WebSocket, joining: Promise<() => void>, logger: Logger, closed: () => void): void {
  let leave: (() => void) | null = null;
  let gone = false;
  ws.on('close', () => {
    closed();
    gone = true;
    leave?.();
  });
  joining.then(
    (left) => {
      if (gone) left();
      else leave = left;
    },
    (error: unknown) => {
      logFailure(logger, error, 'live: joining an organization failed');
      ws.close(1011, 'internal error');
    },
  );
}
