// A TCP server that sends back every byte it receives, and one that answers every connection with fixed bytes.
import { createServer, type Socket } from 'node:net';

export interface EchoServer {
  port: number;
  close(): Promise<void>;
}

async function listen(onConnection: (socket: Socket) => void): Promise<EchoServer> {
  const sockets = new Set<Socket>();
  const server = createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => {});
    onConnection(socket);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as { port: number }).port,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

/** Sends back what it is sent: for a text protocol, a server that repeats a client's secrets to it. */
export function startEchoServer(): Promise<EchoServer> {
  return listen((socket) => socket.pipe(socket));
}

/** Writes `reply` once the client has sent anything, then keeps the connection open. */
export function startReplyServer(reply: Buffer | string): Promise<EchoServer> {
  return listen((socket) => socket.once('data', () => socket.write(reply)));
}

/** Greets every connection with `greeting` (an SSH banner, say), then keeps it open. */
export function startGreetingServer(greeting: string): Promise<EchoServer> {
  return listen((socket) => socket.write(greeting));
}
