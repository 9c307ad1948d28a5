// Servers that take a probe's traffic and never answer, so that only the probe's signal or its timeout can end the check.
import { createSocket } from 'node:dgram';
import { connect, createServer, type Socket } from 'node:net';
import { Worker } from 'node:worker_threads';

export interface BlackHole {
  host: '127.0.0.1';
  port: number;
  /** Resolves once the probe's traffic has arrived: a connection accepted, a datagram received. */
  reached(): Promise<void>;
  /** Connections the probe holds open to it; always 0 where there are none (UDP, a handshake never finished). */
  openConnections(): number;
  close(): Promise<void>;
}

/**
 * A TCP listener that accepts, reads everything and says nothing. It speaks no protocol, so it is also an HTTP
 * server that never responds, a WebSocket server that never upgrades, and a game server that never answers.
 */
export async function startTcpBlackHole(): Promise<BlackHole> {
  const sockets = new Set<Socket>();
  const arrival = promised();
  const server = createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => {});
    socket.resume();
    arrival.resolve();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    host: '127.0.0.1',
    port: (server.address() as { port: number }).port,
    reached: () => arrival.promise,
    openConnections: () => sockets.size,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

/** A UDP socket that receives every datagram and never replies. */
export async function startUdpBlackHole(): Promise<BlackHole> {
  const socket = createSocket('udp4');
  const arrival = promised();
  socket.on('message', () => arrival.resolve());
  await new Promise<void>((resolve) => socket.bind(0, '127.0.0.1', () => resolve()));
  return {
    host: '127.0.0.1',
    port: socket.address().port,
    reached: () => arrival.promise,
    openConnections: () => 0,
    close: () => new Promise<void>((resolve) => socket.close(() => resolve())),
  };
}

/**
 * A port where a TCP handshake never finishes, for a probe whose whole exchange is the handshake. A worker thread
 * listens with a backlog of 1 and then blocks, so it never accepts; two connections fill the accept queue, and the
 * kernel drops the SYN of any later one (Linux and the BSDs do so rather than refuse it), which then waits in SYN-SENT.
 */
export async function startStalledHandshake(): Promise<BlackHole> {
  const gate = new Int32Array(new SharedArrayBuffer(4));
  const worker = new Worker(LISTENER, { eval: true, workerData: gate });
  const port = await new Promise<number>((resolve) => worker.once('message', resolve));
  const fillers: Socket[] = [];
  // Each filler waits for its handshake, so the queue is known to be full before the probe connects.
  for (let i = 0; i < 2; i++) {
    const filler = connect(port, '127.0.0.1');
    filler.on('error', () => {});
    fillers.push(filler);
    await new Promise((resolve) => filler.once('connect', resolve));
  }
  return {
    host: '127.0.0.1',
    port,
    // Nothing arrives that the hole could see: the probe's connect has been issued once the event loop has turned.
    reached: () => new Promise<void>((resolve) => setImmediate(resolve)),
    openConnections: () => 0,
    close: async () => {
      for (const filler of fillers) filler.destroy();
      const exited = new Promise((resolve) => worker.once('exit', resolve));
      Atomics.store(gate, 0, 1);
      Atomics.notify(gate, 0);
      await exited;
    },
  };
}

/** The worker's code: listen, report the port, block until the gate opens, then close and end. */
const LISTENER = `
const { parentPort, workerData: gate } = require('node:worker_threads');
const server = require('node:net').createServer((socket) => socket.destroy());
server.listen({ port: 0, host: '127.0.0.1', backlog: 1 }, () => {
  parentPort.postMessage(server.address().port);
  Atomics.wait(gate, 0, 0);
  server.close();
  parentPort.close();
});
`;

function promised(): { promise: Promise<void>; resolve: () => void } {
  let resolve = () => {};
  const promise = new Promise<void>((done) => {
    resolve = done;
  });
  return { promise, resolve };
}
