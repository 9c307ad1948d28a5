// Who may open a live stream: every upgrade socket (open streams and handshakes under way alike) counts against a cap
// per client address and a cap in all until it closes; past either, the handshake is answered with a problem.
import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { LIVE_RETRY_AFTER_SEC } from '../services/live/limits.js';
import { clientAddress } from './client-address.js';
import { refuseUpgrade } from './upgrade-refusal.js';

export interface Admission {
  /**
   * Counts a handshake against the per-client and total caps (refusing it past them) and returns the client's address,
   * or undefined when the handshake was answered here.
   */
  admit(req: IncomingMessage, socket: Duplex): string | undefined;
}

export function createAdmission(caps: {
  perClient: number;
  total: number;
  trustProxy: boolean;
  closing: () => boolean;
}): Admission {
  let held = 0;
  const heldBy = new Map<string, number>();

  /** Counts the socket against the caps until it closes, whether it became a stream or was refused. */
  function hold(socket: Duplex, client: string): void {
    held++;
    heldBy.set(client, (heldBy.get(client) ?? 0) + 1);
    socket.once('close', () => {
      held--;
      const left = (heldBy.get(client) ?? 1) - 1;
      if (left === 0) heldBy.delete(client);
      else heldBy.set(client, left);
    });
  }

  return {
    admit(req, socket) {
      if (caps.closing()) {
        refuseUpgrade(socket, 503, 'unavailable', 'Shutting down', 'The server is shutting down; reconnect shortly.');
        return undefined;
      }
      if (socket.destroyed) return undefined;
      const client = clientAddress(req.socket.remoteAddress, req.headers['x-forwarded-for'], caps.trustProxy);
      const retry = { 'Retry-After': String(LIVE_RETRY_AFTER_SEC) };
      if ((heldBy.get(client) ?? 0) >= caps.perClient) {
        refuseUpgrade(
          socket,
          429,
          'too-many-streams-from-client',
          'Too many live streams from your address',
          `A client address may hold ${caps.perClient} live streams at once; close one first.`,
          retry,
        );
        return undefined;
      }
      if (held >= caps.total) {
        refuseUpgrade(
          socket,
          503,
          'too-many-streams',
          'Too many live streams',
          'This server has all the live streams it can take; retry later.',
          retry,
        );
        return undefined;
      }
      hold(socket, client);
      return client;
    },
  };
}
