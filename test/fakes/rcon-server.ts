// A fake Source RCON server over TCP, byte for byte as the Valve wiki describes, in the manner of SRCDS or Minecraft, well or badly on demand.
import { createServer, type Socket } from 'node:net';

export type RconFakeFlavour =
  /** SRCDS: an empty RESPONSE_VALUE before each AUTH_RESPONSE; the empty marker is mirrored, then followed by 00 00 00 01 00 00 00 00. */
  | 'source'
  /** Minecraft: the AUTH_RESPONSE alone; any unknown packet type is answered "Unknown request <type>" with its id. */
  | 'minecraft'
  /** A server that ignores packets it does not know, so the marker is never echoed. */
  | 'no-echo';

export type RconFakeMode =
  /** Behave. */
  | 'answer'
  /** Accept the connection, read everything, never write. */
  | 'silent'
  /** Answer the auth packet with a size field of 2^31 - 1. */
  | 'huge-size'
  /** Answer the command with valid 4 KiB packets, forever. */
  | 'endless'
  /** Answer the auth packet one byte every 50 ms. */
  | 'trickle'
  /** Close the connection as soon as the auth packet arrives. */
  | 'close-on-auth'
  /** Close the connection after the command arrives, without answering it. */
  | 'close-on-command'
  /** Answer with text that is not RCON at all. */
  | 'garbage';

export interface RconFakeOptions {
  password: string;
  flavour?: RconFakeFlavour;
  mode?: RconFakeMode;
  /** Output per command; unknown commands answer "Unknown command". */
  commands?: Record<string, string>;
  /** Longest body per response packet; SRCDS uses 4096. */
  maxBodyBytes?: number;
}

export interface RconFakePacket {
  id: number;
  type: number;
  body: string;
}

export interface RconFake {
  port: number;
  /** Every packet received, across connections, in order. */
  received: RconFakePacket[];
  close(): Promise<void>;
}

export const DEFAULT_RCON_COMMANDS: Record<string, string> = {
  status:
    'hostname: Warden Test Server\nversion : 1.40.2.1/14021 secure\nmap     : de_dust2\nplayers : 12 humans, 2 bots (24/0 max)\n',
  sv_password: '"sv_password" = ""',
};

export async function startRconServer(options: RconFakeOptions): Promise<RconFake> {
  const flavour = options.flavour ?? 'source';
  const mode = options.mode ?? 'answer';
  const commands = options.commands ?? DEFAULT_RCON_COMMANDS;
  const maxBody = options.maxBodyBytes ?? 4096;
  const received: RconFakePacket[] = [];
  const sockets = new Set<Socket>();

  const server = createServer((socket) => {
    sockets.add(socket);
    const timers = new Set<NodeJS.Timeout>();
    let stopped = false;
    socket.on('error', () => {});
    socket.on('close', () => {
      stopped = true;
      sockets.delete(socket);
      for (const timer of timers) clearInterval(timer);
    });
    let authed = false;
    // A flooding server is busy forever: later requests are never answered.
    let flooding = false;
    let pending = Buffer.alloc(0);

    const send = (id: number, type: number, body: string | Buffer) => {
      if (!socket.destroyed) socket.write(packet(id, type, body));
    };

    const onPacket = (request: RconFakePacket) => {
      received.push(request);
      if (mode === 'silent' || flooding) return;
      if (request.type === 3) {
        if (mode === 'close-on-auth') return void socket.destroy();
        if (mode === 'garbage') return void socket.write('SSH-2.0-OpenSSH_9.6\r\n');
        if (mode === 'huge-size') {
          const header = Buffer.alloc(12);
          header.writeInt32LE(0x7fffffff, 0);
          return void socket.write(header);
        }
        authed = request.body === options.password;
        const answer = packet(authed ? request.id : -1, 2, '');
        if (mode === 'trickle') {
          let index = 0;
          const timer = setInterval(() => {
            if (index >= answer.length) return clearInterval(timer);
            socket.write(answer.subarray(index, index + 1));
            index += 1;
          }, 50);
          timers.add(timer);
          return;
        }
        if (flavour === 'source') send(request.id, 0, '');
        return send(authed ? request.id : -1, 2, '');
      }
      if (request.type === 2) {
        if (!authed) return send(-1, 2, '');
        if (mode === 'close-on-command') return void socket.destroy();
        if (mode === 'endless') {
          flooding = true;
          const flood = () => {
            if (stopped) return;
            send(request.id, 0, 'y'.repeat(4096));
            setImmediate(flood);
          };
          return flood();
        }
        const output = commands[request.body] ?? `Unknown command "${request.body}"\n`;
        const bytes = Buffer.from(output, 'utf8');
        if (bytes.length === 0) return send(request.id, 0, '');
        for (let offset = 0; offset < bytes.length; offset += maxBody)
          send(request.id, 0, bytes.subarray(offset, offset + maxBody));
        return;
      }
      if (flavour === 'source' && request.type === 0) {
        send(request.id, 0, '');
        return send(request.id, 0, Buffer.from([0, 0, 0, 1, 0, 0, 0, 0]));
      }
      if (flavour === 'minecraft') send(request.id, 0, `Unknown request ${request.type.toString(16)}`);
    };

    socket.on('data', (chunk) => {
      pending = Buffer.concat([pending, chunk]);
      while (pending.length >= 4) {
        const size = pending.readInt32LE(0);
        if (size < 10 || size > 4096 + 10) return void socket.destroy();
        if (pending.length < 4 + size) return;
        const id = pending.readInt32LE(4);
        const type = pending.readInt32LE(8);
        const body = pending.toString('utf8', 12, 4 + size - 2);
        pending = pending.subarray(4 + size);
        onPacket({ id, type, body });
      }
    });
  });

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('fake RCON server has no port');
  return {
    port: address.port,
    received,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

/** size, id, type, body, NUL, NUL: all little endian. */
function packet(id: number, type: number, body: string | Buffer): Buffer {
  const bytes = typeof body === 'string' ? Buffer.from(body, 'utf8') : body;
  const out = Buffer.alloc(14 + bytes.length);
  out.writeInt32LE(10 + bytes.length, 0);
  out.writeInt32LE(id, 4);
  out.writeInt32LE(type, 8);
  bytes.copy(out, 12);
  return out;
}
