// A WebSocket server (the ws package) on 127.0.0.1 at /live, over ws:// or wss://, whose connections a test handles.
import { createServer as createHttpServer, type IncomingMessage, type Server } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { type WebSocket, WebSocketServer } from 'ws';
import type { Certificate } from './http-fakes.js';

export interface WsFake {
  url: string;
  upgrades(): number;
  close(): Promise<void>;
}

/** A ws server on 127.0.0.1 whose connections `onConnection` handles; an upgrade elsewhere than /live gets ws's 400. */
export async function startWsFake(
  onConnection: (socket: WebSocket, request: IncomingMessage) => void,
  tls?: Certificate,
): Promise<WsFake> {
  const server: Server = tls ? createHttpsServer(tls) : createHttpServer();
  server.on('request', (_req, res) => res.writeHead(404).end());
  const wss = new WebSocketServer({ server, path: '/live' });
  let upgrades = 0;
  wss.on('connection', (socket, request) => {
    upgrades++;
    onConnection(socket, request);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `${tls ? 'wss' : 'ws'}://127.0.0.1:${port}/live`,
    upgrades: () => upgrades,
    close: async () => {
      for (const client of wss.clients) client.terminate();
      await new Promise<void>((resolve) => wss.close(() => resolve()));
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
