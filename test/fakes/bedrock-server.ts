// A fake Minecraft Bedrock server answering RakNet Unconnected Pings on 127.0.0.1 UDP: well, wrongly, hugely or not at all.
// Packets are laid out here from the RakNet description, not with the probe's codec, so a mistake in one is not
// mirrored in the other.
import { createSocket, type RemoteInfo, type Socket } from 'node:dgram';

const MAGIC = Buffer.from('00ffff00fefefefefdfdfdfd12345678', 'hex');

export type BedrockServerBehaviour =
  /**
   * Answers each ping with a pong carrying `advertisement`. Optionally sends the `before` datagrams first, and a
   * `decoy` pong from another port (which the probe must ignore). `echoTime: false` puts a wrong time in the pong.
   */
  | { kind: 'pong'; advertisement: string; before?: Buffer[]; decoy?: string; echoTime?: boolean }
  /** Answers each ping with these datagrams only. */
  | { kind: 'garbage'; datagrams: Buffer[] }
  /** Answers each ping with `count` datagrams of `bytes` bytes of filler. */
  | { kind: 'flood'; count: number; bytes: number }
  /** Receives and never answers. */
  | { kind: 'silent' };

export interface ReceivedPing {
  /** The datagram exactly as it arrived. */
  raw: Buffer;
  time: bigint;
  clientGuid: bigint;
  /** Whether it had the length, id and magic of an Unconnected Ping. */
  wellFormed: boolean;
}

export interface FakeBedrockServer {
  host: '127.0.0.1';
  port: number;
  pings: ReceivedPing[];
  close(): Promise<void>;
}

export async function startFakeBedrockServer(behaviour: BedrockServerBehaviour): Promise<FakeBedrockServer> {
  const socket = createSocket('udp4');
  const decoy = createSocket('udp4');
  await Promise.all([bind(socket), bind(decoy)]);
  const fake: FakeBedrockServer = {
    host: '127.0.0.1',
    port: socket.address().port,
    pings: [],
    close: async () => {
      await Promise.all([
        new Promise<void>((resolve) => socket.close(() => resolve())),
        new Promise<void>((resolve) => decoy.close(() => resolve())),
      ]);
    },
  };
  socket.on('message', (datagram, remote) => {
    const ping = readPing(datagram);
    fake.pings.push(ping);
    if (ping.wellFormed) answer(socket, decoy, remote, ping, behaviour);
  });
  return fake;
}

/** Lays out an Unconnected Pong: id 0x1c, time, server GUID, magic, uint16 length, advertisement. */
export function unconnectedPong(time: bigint, advertisement: string, serverGuid = 0x0123456789abcdefn): Buffer {
  const text = Buffer.from(advertisement, 'utf8');
  const head = Buffer.alloc(1 + 8 + 8);
  head[0] = 0x1c;
  head.writeBigInt64BE(time, 1);
  head.writeBigInt64BE(serverGuid, 9);
  const length = Buffer.alloc(2);
  length.writeUInt16BE(text.length);
  return Buffer.concat([head, MAGIC, length, text]);
}

function answer(
  socket: Socket,
  decoy: Socket,
  to: RemoteInfo,
  ping: ReceivedPing,
  behaviour: BedrockServerBehaviour,
): void {
  const send = (from: Socket, datagram: Buffer) => from.send(datagram, to.port, to.address);
  switch (behaviour.kind) {
    case 'pong': {
      if (behaviour.decoy !== undefined) send(decoy, unconnectedPong(ping.time, behaviour.decoy));
      for (const datagram of behaviour.before ?? []) send(socket, datagram);
      send(
        socket,
        unconnectedPong(behaviour.echoTime === false ? ping.time ^ 0x5555n : ping.time, behaviour.advertisement),
      );
      return;
    }
    case 'garbage':
      for (const datagram of behaviour.datagrams) send(socket, datagram);
      return;
    case 'flood':
      for (let i = 0; i < behaviour.count; i++) send(socket, Buffer.alloc(behaviour.bytes, 0x1c));
      return;
    case 'silent':
      return;
  }
}

/** An Unconnected Ping is 33 bytes: id 0x01, int64 time, the 16-byte magic, int64 client GUID. */
function readPing(datagram: Buffer): ReceivedPing {
  const wellFormed = datagram.length === 33 && datagram[0] === 0x01 && datagram.subarray(9, 25).equals(MAGIC);
  return {
    raw: Buffer.from(datagram),
    time: wellFormed ? datagram.readBigInt64BE(1) : 0n,
    clientGuid: wellFormed ? datagram.readBigInt64BE(25) : 0n,
    wellFormed,
  };
}

function bind(socket: Socket): Promise<void> {
  return new Promise((resolve) => socket.bind(0, '127.0.0.1', () => resolve()));
}
