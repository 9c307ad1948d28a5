// TLS started over a connection a probe already holds (NATS after the server's INFO; STARTTLS protocols): the
// connection went through the target guard when it was opened, so nothing is looked up or checked again here.
import { isIP, type Socket } from 'node:net';
import { type ConnectionOptions, type TLSSocket, connect as tlsConnect } from 'node:tls';
import { bareHost } from './hosts.js';

/**
 * Wraps `socket` in TLS, checking the certificate against `host` (sent as SNI unless it is an IP address). It emits
 * 'secureConnect', or 'error'. `options` say how to verify, never where to connect.
 */
export function upgradeToTls(socket: Socket, host: string, options: Pick<ConnectionOptions, 'rejectUnauthorized' | 'ca'>): TLSSocket {
  const name = bareHost(host);
  return tlsConnect({ ...options, socket, host: name, ...(isIP(name) === 0 ? { servername: name } : {}) });
}
