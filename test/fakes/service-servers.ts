// Small servers for the service monitor types (ssh, udp, mail): each speaks what a test scripts, byte for byte, on
// 127.0.0.1 and a free port, and closes every connection it holds when closed.
import { createSocket, type RemoteInfo } from 'node:dgram';
import { createServer, type Socket } from 'node:net';

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
