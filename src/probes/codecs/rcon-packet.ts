// Source RCON packets (int32 LE size, int32 id, int32 type, body, two NULs): an encoder and an incremental, size-capped decoder.

export const RCON_TYPE = {
  /** Server → client: command output; also the empty marker a client sends to learn where output ends. */
  responseValue: 0,
  /** Client → server. */
  execCommand: 2,
  /** Server → client, same number as execCommand: id -1 means the password was wrong. */
  authResponse: 2,
  /** Client → server: the password. */
  auth: 3,
} as const;

export interface RconPacket {
  id: number;
  type: number;
  body: string;
}

/** The size field counts id, type and the two NULs at least. */
const MIN_SIZE = 10;

/** A packet the decoder refuses; its message is shown to users after "unexpected response: ". */
export class RconFormatError extends Error {
  override name = 'RconFormatError';
}

export function encodeRconPacket(packet: RconPacket): Buffer {
  const body = Buffer.from(packet.body, 'utf8');
  const out = Buffer.alloc(4 + MIN_SIZE + body.length);
  out.writeInt32LE(MIN_SIZE + body.length, 0);
  out.writeInt32LE(packet.id, 4);
  out.writeInt32LE(packet.type, 8);
  body.copy(out, 12);
  // The last two bytes stay 0: the body's terminator and the empty second string.
  return out;
}

/** Splits a TCP stream into packets; refuses a size field above `maxPacketBytes` before buffering it. */
export class RconDecoder {
  private pending: Buffer = Buffer.alloc(0);

  constructor(private readonly maxPacketBytes: number) {}

  push(chunk: Buffer): RconPacket[] {
    this.pending = this.pending.length === 0 ? chunk : Buffer.concat([this.pending, chunk]);
    const packets: RconPacket[] = [];
    while (this.pending.length >= 4) {
      const size = this.pending.readInt32LE(0);
      if (size < MIN_SIZE) throw new RconFormatError(`packet size ${size} is below the minimum of ${MIN_SIZE}`);
      if (size > this.maxPacketBytes)
        throw new RconFormatError(`packet size ${size} exceeds the limit of ${this.maxPacketBytes} bytes`);
      if (this.pending.length < 4 + size) break;
      const id = this.pending.readInt32LE(4);
      const type = this.pending.readInt32LE(8);
      let end = 4 + size;
      // Servers end the body with one or two NULs; none of them belong to the text.
      while (end > 12 && this.pending[end - 1] === 0) end -= 1;
      packets.push({ id, type, body: this.pending.toString('utf8', 12, end) });
      this.pending = this.pending.subarray(4 + size);
    }
    return packets;
  }
}
