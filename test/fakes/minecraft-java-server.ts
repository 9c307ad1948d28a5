// A fake Minecraft Java server speaking Server List Ping on 127.0.0.1, answering well, wrongly, slowly, hugely or not at all.
// Its VarInt and packet code is written from the protocol description, not shared with the probe's codec, so a
// mistake in one is not mirrored in the other.
import { createServer, type Server, type Socket } from 'node:net';

export type JavaServerBehaviour =
  /** Answers the status with this JSON (an object is stringified) and the ping with a pong, unless `pong` is false. */
  | { kind: 'status'; status: unknown; pong?: boolean }
  /** Answers the status request with these bytes, then hangs up. */
  | { kind: 'garbage'; bytes: Buffer }
  /** Sends a well-formed status response one byte at a time. */
  | { kind: 'trickle'; status: unknown; intervalMs: number }
  /** Announces a packet of 2^31 − 1 bytes (about 2 GB) and sends nothing more. */
  | { kind: 'huge-length' }
  /** Announces a large status response and sends filler until the client hangs up. */
  | { kind: 'endless' }
  /** Accepts the connection and never says a word. */
  | { kind: 'silent' };

export interface ReceivedHandshake {
  protocolVersion: number;
  host: string;
  port: number;
  nextState: number;
}

export interface FakeJavaServer {
  host: '127.0.0.1';
  port: number;
  handshakes: ReceivedHandshake[];
  /** Payloads of the ping requests received. */
  pings: bigint[];
  /** Bytes the endless mode managed to send before the client hung up. */
  bytesSent: number;
  /** Connections still open. */
  openConnections(): number;
  close(): Promise<void>;
}

export async function startFakeJavaServer(behaviour: JavaServerBehaviour): Promise<FakeJavaServer> {
  const sockets = new Set<Socket>();
  const fake: FakeJavaServer = {
    host: '127.0.0.1',
    port: 0,
    handshakes: [],
    pings: [],
    bytesSent: 0,
    openConnections: () => sockets.size,
    close: () => close(server, sockets),
  };
  const server = createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => {});
    serve(socket, behaviour, fake);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  fake.port = (server.address() as { port: number }).port;
  return fake;
}

function serve(socket: Socket, behaviour: JavaServerBehaviour, fake: FakeJavaServer): void {
  // Silent still reads (and drops) what arrives, so it notices when the client hangs up.
  if (behaviour.kind === 'silent') return void socket.resume();
  let buffered: Buffer = Buffer.alloc(0);
  let state: 'handshaking' | 'status' = 'handshaking';
  socket.on('data', (chunk: Buffer) => {
    buffered = Buffer.concat([buffered, chunk]);
    for (;;) {
      const frame = takeFrame(buffered);
      if (!frame) return;
      buffered = frame.rest;
      const id = readVarInt(frame.payload, 0);
      const body = frame.payload.subarray(id.size);
      if (state === 'handshaking' && id.value === 0x00) {
        fake.handshakes.push(readHandshake(body));
        state = 'status';
      } else if (state === 'status' && id.value === 0x00) {
        answerStatus(socket, behaviour, fake);
      } else if (state === 'status' && id.value === 0x01 && behaviour.kind === 'status') {
        fake.pings.push(body.readBigInt64BE());
        if (behaviour.pong === false) socket.end();
        else socket.end(packet(0x01, body));
      }
    }
  });
}

function answerStatus(socket: Socket, behaviour: JavaServerBehaviour, fake: FakeJavaServer): void {
  switch (behaviour.kind) {
    case 'status':
      socket.write(statusResponse(behaviour.status));
      return;
    case 'garbage':
      socket.end(behaviour.bytes);
      return;
    case 'trickle': {
      const bytes = statusResponse(behaviour.status);
      let next = 0;
      const timer = setInterval(() => {
        if (next < bytes.length) socket.write(bytes.subarray(next, ++next));
      }, behaviour.intervalMs);
      socket.on('close', () => clearInterval(timer));
      return;
    }
    case 'huge-length':
      socket.write(Buffer.from([0xff, 0xff, 0xff, 0xff, 0x07]));
      return;
    case 'endless': {
      // Announces 2 MiB, then keeps the pipe full for as long as the client reads.
      socket.write(Buffer.concat([varInt(2 * 1024 * 1024), Buffer.from([0x00])]));
      const filler = Buffer.alloc(16 * 1024, 'x');
      const pump = () => {
        while (!socket.destroyed && socket.writable) {
          fake.bytesSent += filler.length;
          if (!socket.write(filler)) return void socket.once('drain', pump);
        }
      };
      pump();
      return;
    }
    case 'silent':
      return;
  }
}

function statusResponse(status: unknown): Buffer {
  const json = Buffer.from(typeof status === 'string' ? status : JSON.stringify(status), 'utf8');
  return packet(0x00, Buffer.concat([varInt(json.length), json]));
}

function readHandshake(body: Buffer): ReceivedHandshake {
  const protocol = readVarInt(body, 0);
  const hostLength = readVarInt(body, protocol.size);
  const hostStart = protocol.size + hostLength.size;
  const hostEnd = hostStart + hostLength.value;
  const nextState = readVarInt(body, hostEnd + 2);
  return {
    protocolVersion: protocol.value,
    host: body.toString('utf8', hostStart, hostEnd),
    port: body.readUInt16BE(hostEnd),
    nextState: nextState.value,
  };
}

function takeFrame(buffer: Buffer): { payload: Buffer; rest: Buffer } | undefined {
  if (buffer.length === 0) return undefined;
  let length: { value: number; size: number };
  try {
    length = readVarInt(buffer, 0);
  } catch {
    return undefined;
  }
  const end = length.size + length.value;
  if (buffer.length < end) return undefined;
  return { payload: buffer.subarray(length.size, end), rest: buffer.subarray(end) };
}

/** Each byte holds 7 bits, least significant group first; the high bit says another byte follows. */
function readVarInt(buffer: Buffer, offset: number): { value: number; size: number } {
  let value = 0;
  for (let size = 0; size < 5; size++) {
    const byte = buffer[offset + size];
    if (byte === undefined) throw new Error('VarInt cut short');
    value |= (byte & 0x7f) << (7 * size);
    if ((byte & 0x80) === 0) return { value, size: size + 1 };
  }
  throw new Error('VarInt too long');
}

function varInt(value: number): Buffer {
  const bytes: number[] = [];
  let rest = value >>> 0;
  while (rest > 0x7f) {
    bytes.push((rest & 0x7f) | 0x80);
    rest >>>= 7;
  }
  bytes.push(rest);
  return Buffer.from(bytes);
}

function packet(id: number, body: Buffer): Buffer {
  const payload = Buffer.concat([varInt(id), body]);
  return Buffer.concat([varInt(payload.length), payload]);
}

async function close(server: Server, sockets: Set<Socket>): Promise<void> {
  for (const socket of sockets) socket.destroy();
  await new Promise<void>((resolve) => server.close(() => resolve()));
}
