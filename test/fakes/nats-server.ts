// A fake NATS server that asks for a user and password (auth_required in its INFO) and refuses any other with the
// real server's -ERR; `echo` makes the refusal quote the password it was given. And a responder on a real server.
import { connect, createServer, type Socket } from 'node:net';
import { TLSSocket } from 'node:tls';
import type { Certificate } from './http-fakes.js';

export interface NatsFake {
  port: number;
  /** The CONNECT options of each connection. */
  connects: Record<string, unknown>[];
  close(): Promise<void>;
}

/** With a certificate, TLS is required: it starts after INFO, as nats-server does it. */
export async function startNatsFake(options: {
  user: string;
  pass: string;
  echo?: boolean;
  certificate?: Certificate;
}): Promise<NatsFake> {
  const sockets = new Set<Socket>();
  const connects: Record<string, unknown>[] = [];
  const server = createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => {});
    const tls = options.certificate !== undefined;
    socket.write(
      `INFO ${JSON.stringify({ server_id: 'FAKE', server_name: 'fake-nats', version: '2.10.0', proto: 1, headers: true, max_payload: 1048576, auth_required: true, tls_required: tls })}\r\n`,
    );
    const conn = options.certificate ? new TLSSocket(socket, { isServer: true, ...options.certificate }) : socket;
    conn.on('error', () => {});
    let buffer = '';
    conn.setEncoding('utf8');
    conn.on('data', (chunk: string) => {
      buffer += chunk;
      const end = buffer.indexOf('\r\n');
      if (end === -1 || !buffer.startsWith('CONNECT ')) return;
      const options_ = JSON.parse(buffer.slice(8, end)) as Record<string, unknown>;
      connects.push(options_);
      buffer = '';
      if (options_.user === options.user && options_.pass === options.pass) conn.write('PONG\r\n');
      else
        conn.end(
          options.echo ? `-ERR 'Unknown password ${String(options_.pass)}'\r\n` : "-ERR 'Authorization Violation'\r\n",
        );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as { port: number }).port,
    connects,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

/** Subscribes to `subject` on a real NATS server and answers every request with `answer`; resolves once subscribed. */
export async function startNatsResponder(
  port: number,
  subject: string,
  answer: string,
): Promise<{ close(): Promise<void> }> {
  const socket = connect({ host: '127.0.0.1', port });
  socket.setEncoding('utf8');
  let buffer = '';
  await new Promise<void>((resolve, reject) => {
    socket.once('error', reject);
    socket.on('data', (chunk: string) => {
      buffer += chunk;
      for (;;) {
        const end = buffer.indexOf('\r\n');
        if (end === -1) return;
        const line = buffer.slice(0, end);
        if (line.startsWith('INFO '))
          socket.write(`CONNECT {"verbose":false,"protocol":1}\r\nSUB ${subject} 1\r\nPING\r\n`);
        else if (line === 'PONG') resolve();
        else if (line === 'PING') socket.write('PONG\r\n');
        else if (line.startsWith('MSG ')) {
          const [, , , replyTo, bytes] = line.split(' ');
          if (buffer.length < end + 2 + Number(bytes) + 2) return;
          buffer = buffer.slice(end + 2 + Number(bytes) + 2);
          socket.write(`PUB ${replyTo} ${Buffer.byteLength(answer)}\r\n${answer}\r\n`);
          continue;
        }
        buffer = buffer.slice(end + 2);
      }
    });
  });
  return { close: async () => void socket.destroy() };
}
