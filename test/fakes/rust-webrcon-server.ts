// A fake Rust WebRCON server: ws://host:port/<password>, JSON {Identifier, Message, Name} requests, serverinfo replies as Rust sends them.
import { createServer, type IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { type WebSocket, WebSocketServer } from 'ws';

export type RustFakeMode =
  /** Answer serverinfo. */
  | 'answer'
  /** Accept the connection, never answer. */
  | 'silent'
  /** Answer with a Message that is not JSON (an unknown command's text). */
  | 'not-json'
  /** Answer with a message larger than the probe accepts. */
  | 'huge'
  /** Broadcast 8 KiB console lines forever instead of answering. */
  | 'flood'
  /** Close the connection when the request arrives. */
  | 'close-on-request';

/** How a wrong password is turned away. */
export type RustFakeRejection =
  /** What Rust does: accept the upgrade, then close the WebSocket at once. */
  | 'close'
  /** Refuse the upgrade with HTTP 401. */
  | 'http-401'
  /** Drop the TCP connection during the handshake. */
  | 'hang-up';

export interface RustFakeOptions {
  password: string;
  mode?: RustFakeMode;
  rejection?: RustFakeRejection;
  /** Console and chat lines broadcast before the reply, as a busy server does. */
  chatter?: boolean;
  /** Overrides of the serverinfo fields. */
  info?: Record<string, unknown>;
  /** Wait this long before answering. */
  delayMs?: number;
  /** Answer serverinfo with this text as the Message, instead of the serverinfo JSON. */
  reply?: string;
  /** The players `playerlist` lists (their DisplayName); the command is not answered when this is omitted. */
  players?: string[];
}

export interface RustFake {
  port: number;
  /** Raw request paths of every upgrade attempt. */
  paths: string[];
  /** Every text message received. */
  received: string[];
  close(): Promise<void>;
}

/** A serverinfo reply as Rust (2024) sends it, before JSON encoding into the envelope's Message. */
export const DEFAULT_RUST_INFO: Record<string, unknown> = {
  Hostname: 'Warden Test Rust',
  MaxPlayers: 200,
  Players: 87,
  Queued: 4,
  Joining: 2,
  ReservedSlots: 0,
  EntityCount: 152340,
  GameTime: '05/12/2024 13:01:44',
  Uptime: 86400,
  Map: 'Procedural Map',
  Framerate: 59.83,
  Memory: 10240,
  MemoryUsageSystem: 20480,
  Collections: 12,
  NetworkIn: 1200,
  NetworkOut: 56000,
  Restarting: false,
  SaveCreatedTime: '2024-05-10T18:00:00',
  Version: 2590,
  Protocol: '2590.277.1',
};

export async function startRustWebrconServer(options: RustFakeOptions): Promise<RustFake> {
  const mode = options.mode ?? 'answer';
  const paths: string[] = [];
  const received: string[] = [];
  const timers = new Set<NodeJS.Timeout>();
  const sockets = new Set<Duplex>();
  const http = createServer((_request, response) => response.writeHead(426).end());
  const wss = new WebSocketServer({ noServer: true });

  http.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  http.on('upgrade', (request: IncomingMessage, socket: Duplex, head: Buffer) => {
    const path = request.url ?? '/';
    paths.push(path);
    const authorised = path.slice(1) === options.password;
    if (!authorised && options.rejection === 'http-401')
      return void socket.end('HTTP/1.1 401 Unauthorized\r\nContent-Length: 0\r\n\r\n');
    if (!authorised && options.rejection === 'hang-up') return void socket.destroy();
    wss.handleUpgrade(request, socket, head, (client) => {
      if (!authorised) return client.close();
      serve(client);
    });
  });

  const serve = (client: WebSocket) => {
    client.on('message', (raw, isBinary) => {
      if (isBinary) return;
      const text = raw.toString();
      received.push(text);
      const request = JSON.parse(text) as { Identifier: number; Message: string; Name: string };
      if (mode === 'silent') return;
      if (mode === 'close-on-request') return client.close();
      if (mode === 'flood') {
        const flood = () => {
          if (client.readyState !== client.OPEN) return;
          client.send(envelope(-1, `[console] ${'x'.repeat(8 * 1024)}`, 'Generic'), () => setImmediate(flood));
        };
        return flood();
      }
      if (options.chatter) {
        client.send(envelope(0, 'SaveList: 1520 entities saved', 'Generic'));
        client.send(
          JSON.stringify({ Message: '{"Channel":0,"Message":"hello","UserId":"7656"}', Identifier: -1, Type: 'Chat' }),
        );
        client.send('not even json');
        client.send(envelope(request.Identifier + 1, 'someone else’s reply', 'Generic'));
      }
      const answer = () => {
        if (client.readyState !== client.OPEN) return;
        if (request.Message === 'playerlist') {
          if (options.players === undefined) return;
          return client.send(envelope(request.Identifier, playerList(options.players), 'Generic'));
        }
        if (mode === 'not-json')
          return client.send(envelope(request.Identifier, `Command '${request.Message}' not found`, 'Warning'));
        if (mode === 'huge') return client.send(envelope(request.Identifier, 'z'.repeat(300 * 1024), 'Generic'));
        if (options.reply !== undefined) return client.send(envelope(request.Identifier, options.reply, 'Generic'));
        // Rust pretty-prints the inner JSON.
        const info = JSON.stringify({ ...DEFAULT_RUST_INFO, ...options.info }, null, 2);
        client.send(envelope(request.Identifier, info, 'Generic'));
      };
      if (!options.delayMs) return answer();
      const timer = setTimeout(() => {
        timers.delete(timer);
        answer();
      }, options.delayMs);
      timers.add(timer);
    });
  };

  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  const address = http.address();
  if (address === null || typeof address === 'string') throw new Error('fake WebRCON server has no port');
  return {
    port: address.port,
    paths,
    received,
    close: () =>
      new Promise<void>((resolve) => {
        for (const timer of timers) clearTimeout(timer);
        for (const client of wss.clients) client.terminate();
        for (const socket of sockets) socket.destroy();
        wss.close();
        http.close(() => resolve());
      }),
  };
}

/** A playerlist reply as Rust sends it: every connected player with ids, address and stats, pretty-printed. */
function playerList(names: string[]): string {
  const players = names.map((name, n) => ({
    SteamID: String(76561198000000000n + BigInt(n)),
    OwnerSteamID: '0',
    DisplayName: name,
    Ping: 40 + n,
    Address: `203.0.113.${n % 250}:${50000 + n}`,
    ConnectedSeconds: 60 * (n + 1),
    VoiationLevel: 0.0,
    CurrentLevel: 0.0,
    UnspentXp: 0.0,
    Health: 100.0,
  }));
  return JSON.stringify(players, null, 2);
}

function envelope(identifier: number, message: string, type: string): string {
  return JSON.stringify({ Message: message, Identifier: identifier, Type: type, Stacktrace: '' });
}
