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
export async function startUdpResponder(
  answer: (datagram: Buffer, from: RemoteInfo) => Buffer[],
): Promise<UdpResponder> {
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

/** Dovecot's IMAP greeting, byte for byte but its line ending. */
export const IMAP_GREETING =
  '* OK [CAPABILITY IMAP4rev1 SASL-IR LOGIN-REFERRALS ID ENABLE IDLE LITERAL+ STARTTLS LOGINDISABLED] Dovecot (Ubuntu) ready.';

/** Dovecot's IMAP, with TLS configured when given a certificate. */
export const dovecotImap = (tls?: Certificate): LineServerOptions => ({
  greeting: `${IMAP_GREETING}\r\n`,
  answer: (line) => {
    if (line === 'a1 STARTTLS')
      return tls
        ? { reply: 'a1 OK Begin TLS negotiation now.\r\n', thenTls: true }
        : { reply: "a1 BAD TLS support isn't enabled.\r\n" };
    if (line === 'a2 LOGOUT') return { reply: '* BYE Logging out\r\na2 OK Logout completed (0.001 + 0.000 secs).\r\n' };
    return undefined;
  },
  ...(tls ? { tls } : {}),
});

/** Dovecot's POP3, with TLS configured when given a certificate. */
export const dovecotPop3 = (tls?: Certificate): LineServerOptions => ({
  greeting: '+OK Dovecot (Ubuntu) ready.\r\n',
  answer: (line) => {
    if (line === 'STLS')
      return tls
        ? { reply: '+OK Begin TLS negotiation now.\r\n', thenTls: true }
        : { reply: "-ERR TLS support isn't enabled.\r\n" };
    if (line === 'QUIT') return { reply: '+OK Logging out.\r\n' };
    return undefined;
  },
  ...(tls ? { tls } : {}),
});
