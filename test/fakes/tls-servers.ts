// TLS servers for the tls probe's tests: one that completes handshakes with a given certificate, and ones that fail the
// handshake in the ways a broken or hostile server does (hanging up mid-way, stalling mid-record).
import { createServer as createTcpServer, type Server, type Socket } from 'node:net';
import { createServer as createTlsServer } from 'node:tls';
import type { Certificate } from './http-fakes.js';

export interface TlsFake {
  host: '127.0.0.1';
  port: number;
  /** Connections accepted. */
  connections(): number;
  /** The server names (SNI) client hellos asked for, oldest first; a hello without one adds nothing. */
  serverNames: string[];
  close(): Promise<void>;
}

/** Completes every handshake with `certificate` (its chain as given), then leaves the connection to the client. */
export function startTlsServer(certificate: Certificate): Promise<TlsFake> {
  const serverNames: string[] = [];
  const server = createTlsServer({
    ...certificate,
    // Called for a hello with a server name only; no context given, the server's own serves it.
    SNICallback: (name, done) => {
      serverNames.push(name);
      done(null);
    },
  });
  server.on('secureConnection', (socket) => socket.on('error', () => {}));
  // A client that refuses the certificate, or hangs up as soon as it has it, is no error of the fake's.
  server.on('tlsClientError', () => {});
  return listening(server, serverNames);
}

/** Reads the client's hello and hangs up without answering it. */
export function startHandshakeCloser(): Promise<TlsFake> {
  return listening(
    createTcpServer((socket) => {
      socket.on('error', () => {});
      socket.once('data', () => socket.end());
    }),
  );
}

/**
 * Reads the client's hello and answers with the start of a handshake record (a ServerHello of 80 bytes announced, one
 * byte of it sent), then says nothing more: only the client's timeout ends the handshake.
 */
export function startHandshakeStaller(): Promise<TlsFake> {
  return listening(
    createTcpServer((socket) => {
      socket.on('error', () => {});
      socket.resume();
      socket.once('data', () => socket.write(Buffer.from([0x16, 0x03, 0x03, 0x00, 0x50, 0x02])));
    }),
  );
}

async function listening(server: Server, serverNames: string[] = []): Promise<TlsFake> {
  const sockets = new Set<Socket>();
  let connections = 0;
  server.on('connection', (socket: Socket) => {
    connections++;
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    host: '127.0.0.1',
    port: (server.address() as { port: number }).port,
    connections: () => connections,
    serverNames,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}
