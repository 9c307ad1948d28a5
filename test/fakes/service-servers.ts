// Small servers for the service monitor types (ssh, udp, mail): each speaks what a test scripts, byte for byte, on
// 127.0.0.1 and a free port, and closes every connection it holds when closed.
import { createSocket, type RemoteInfo } from 'node:dgram';
import { createServer, type Socket } from 'node:net';
import { TLSSocket } from 'node:tls';
import type { Certificate } from './http-fakes.js';

export interface ScriptedTcpServer {
  host: '127.0.0.1';
  port: number;
  /** Connections accepted so far. */
  connections(): number;
  /** Every byte clients sent, in order, across connections. */
  received(): string;
  close(): Promise<void>;
}

/** A TCP server that hands every connection to `script`; what clients send is recorded. */
export async function startScriptedTcp(script: (socket: Socket) => void): Promise<ScriptedTcpServer> {
  const sockets = new Set<Socket>();
  let connections = 0;
  let received = '';
  const server = createServer((socket) => {
    connections++;
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => {});
    socket.on('data', (chunk: Buffer) => {
      received += chunk.toString('latin1');
    });
    script(socket);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    host: '127.0.0.1',
    port: (server.address() as { port: number }).port,
    connections: () => connections,
    received: () => received,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

/** Writes chunks until the peer goes away: a server that floods. */
export function flood(socket: Socket, chunk: Buffer): void {
  const write = () => {
    while (!socket.destroyed && socket.write(chunk));
  };
  socket.on('drain', write);
  write();
}

export interface UdpResponder {
  host: '127.0.0.1';
  port: number;
  /** Datagrams received so far. */
  datagrams(): Buffer[];
  close(): Promise<void>;
}

/** A UDP socket that answers each datagram with what `answer` returns (nothing for an empty list). */
export async function startUdpResponder(answer: (datagram: Buffer, from: RemoteInfo) => Buffer[]): Promise<UdpResponder> {
  const socket = createSocket('udp4');
  const datagrams: Buffer[] = [];
  socket.on('message', (datagram, from) => {
    datagrams.push(datagram);
    for (const reply of answer(datagram, from)) socket.send(reply, from.port, from.address);
  });
  await new Promise<void>((resolve) => socket.bind(0, '127.0.0.1', () => resolve()));
  return {
    host: '127.0.0.1',
    port: socket.address().port,
    datagrams: () => datagrams,
    close: () => new Promise<void>((resolve) => socket.close(() => resolve())),
  };
}

export interface LineServerOptions {
  /** Sent as soon as a connection is accepted (after the handshake with implicitTls), line endings included. */
  greeting: string;
  /** The answer to a line the client sent, line endings included; `thenTls` starts TLS once it is written (STARTTLS). */
  answer(line: string): { reply: string; thenTls?: boolean } | undefined;
  tls?: Certificate;
  /** TLS from the first byte, as on ports 465, 993 and 995. */
  implicitTls?: boolean;
}

export interface LineServer extends ScriptedTcpServer {
  /** The lines clients sent, in order; those sent over TLS after STARTTLS are marked "(tls) ". */
  lines(): string[];
}

/** A line-based server (IMAP, POP3, SMTP) scripted line by line, with STARTTLS when it is given a certificate. */
export async function startLineServer(options: LineServerOptions): Promise<LineServer> {
  const lines: string[] = [];
  const converse = (socket: Socket, secure: boolean) => {
    let pending = '';
    const onData = (chunk: Buffer) => {
      pending += chunk.toString('utf8');
      for (let end = pending.indexOf('\n'); end >= 0; end = pending.indexOf('\n')) {
        const line = pending.slice(0, end).replace(/\r$/, '');
        pending = pending.slice(end + 1);
        lines.push(secure ? `(tls) ${line}` : line);
        const answer = options.answer(line);
        if (!answer) continue;
        socket.write(answer.reply);
        if (answer.thenTls && options.tls) {
          socket.removeListener('data', onData);
          const upgraded = new TLSSocket(socket, { isServer: true, key: options.tls.key, cert: options.tls.cert });
          upgraded.on('error', () => {});
          upgraded.once('secure', () => converse(upgraded, true));
          return;
        }
      }
    };
    socket.on('data', onData);
  };
  const started = await startScriptedTcp((socket) => {
    if (!options.implicitTls || !options.tls) {
      socket.write(options.greeting);
      converse(socket, false);
      return;
    }
    const secure = new TLSSocket(socket, { isServer: true, key: options.tls.key, cert: options.tls.cert });
    secure.on('error', () => {});
    secure.once('secure', () => {
      secure.write(options.greeting);
      converse(secure, true);
    });
  });
  return { ...started, lines: () => lines };
}
