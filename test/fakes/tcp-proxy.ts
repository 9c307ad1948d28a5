// A TCP proxy a test can cut, to play a database restart without touching the machine's shared server: it forwards
// each connection to the target; cut() resets every connection and closes the port (new ones are refused), as a
// server going down does; restore() listens on the same port again.
import { connect, createServer, type Server, type Socket } from 'node:net';

export interface TcpProxy {
  port: number;
  /** Connections forwarded now. */
  open(): number;
  /** The local ports of the connections to the target: how the target tells them apart (PostgreSQL's client_port). */
  upstreamPorts(): number[];
  cut(): Promise<void>;
  restore(): Promise<void>;
  /** From now on new connections are accepted and never answered, as behind a network that drops packets. */
  stall(): void;
  close(): Promise<void>;
}

export async function startTcpProxy(target: { host: string; port: number }): Promise<TcpProxy> {
  const pairs = new Set<{ client: Socket; upstream: Socket }>();
  let port = 0;
  let server: Server | null = null;
  let stalled = false;
  const held = new Set<Socket>();

  function accept(client: Socket): void {
    if (stalled) {
      held.add(client);
      client.on('error', () => {}).on('close', () => held.delete(client));
      return;
    }
    const upstream = connect(target.port, target.host);
    const pair = { client, upstream };
    pairs.add(pair);
    const drop = () => {
      pairs.delete(pair);
      client.destroy();
      upstream.destroy();
    };
    client.on('error', drop).on('close', drop);
    upstream.on('error', drop).on('close', drop);
    client.pipe(upstream);
    upstream.pipe(client);
  }

  async function listen(): Promise<void> {
    const next = createServer(accept);
    await new Promise<void>((resolve, reject) => {
      next.once('error', reject);
      next.listen(port, '127.0.0.1', () => {
        next.off('error', reject);
        resolve();
      });
    });
    port = (next.address() as { port: number }).port;
    server = next;
  }

  async function stopListening(): Promise<void> {
    const closing = server;
    server = null;
    if (closing) await new Promise<void>((resolve) => closing.close(() => resolve()));
  }

  await listen();
  return {
    get port() {
      return port;
    },
    open: () => pairs.size,
    upstreamPorts: () =>
      [...pairs].flatMap(({ upstream }) => (upstream.localPort === undefined ? [] : [upstream.localPort])),
    async cut() {
      const closed = stopListening();
      // A reset, not a polite end: what the clients of a server that went away see.
      for (const { client, upstream } of [...pairs]) {
        client.resetAndDestroy();
        upstream.destroy();
      }
      pairs.clear();
      await closed;
    },
    restore: listen,
    stall() {
      stalled = true;
    },
    async close() {
      for (const client of held) client.destroy();
      held.clear();
      for (const { client, upstream } of [...pairs]) {
        client.destroy();
        upstream.destroy();
      }
      pairs.clear();
      await stopListening();
    },
  };
}
