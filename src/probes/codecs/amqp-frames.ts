// AMQP 0-9-1 frames, as much as a connection handshake and a passive queue declaration need: method frames, short
// and long strings, and field tables (read to find the server's product and version, skipped otherwise).

export const PROTOCOL_HEADER = Buffer.from('AMQP\x00\x00\x09\x01', 'latin1');
const FRAME_END = 0xce;

export interface MethodFrame {
  channel: number;
  classId: number;
  methodId: number;
  args: Buffer;
}

export function shortString(text: string): Buffer {
  const bytes = Buffer.from(text, 'utf8');
  if (bytes.length > 255) throw new Error('a short string longer than 255 bytes');
  return Buffer.concat([Buffer.from([bytes.length]), bytes]);
}

export function longString(bytes: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(bytes.length);
  return Buffer.concat([length, bytes]);
}

/** A field table of string values (client properties). */
export function stringTable(entries: Record<string, string>): Buffer {
  const body = Buffer.concat(
    Object.entries(entries).flatMap(([key, value]) => [
      shortString(key),
      Buffer.from('S'),
      longString(Buffer.from(value)),
    ]),
  );
  return longString(body);
}

export function methodFrame(channel: number, classId: number, methodId: number, ...args: Buffer[]): Buffer {
  const payload = Buffer.concat([Buffer.alloc(4), ...args]);
  payload.writeUInt16BE(classId, 0);
  payload.writeUInt16BE(methodId, 2);
  const header = Buffer.alloc(7);
  header[0] = 1;
  header.writeUInt16BE(channel, 1);
  header.writeUInt32BE(payload.length, 3);
  return Buffer.concat([header, payload, Buffer.from([FRAME_END])]);
}

/**
 * Reads one frame at `offset`: a method frame, 'other' (a heartbeat or content frame, skipped), or undefined while
 * the buffer holds only part of it. Throws on bytes that are not AMQP frames (a server answering with its own
 * protocol header says which version it wants).
 */
export function readFrame(
  buffer: Buffer,
  offset: number,
  maxBytes: number,
): { frame: MethodFrame | 'other'; end: number } | undefined {
  if (buffer.length - offset < 7) return undefined;
  if (buffer.toString('latin1', offset, offset + 4) === 'AMQP')
    throw new Error('the server speaks another version of AMQP');
  const type = buffer[offset] as number;
  const size = buffer.readUInt32BE(offset + 3);
  if (size > maxBytes) throw new Error(`a frame of ${size} bytes`);
  const end = offset + 7 + size + 1;
  if (buffer.length < end) return undefined;
  if (buffer[end - 1] !== FRAME_END) throw new Error('a frame without its end marker');
  if (type !== 1) return { frame: 'other', end };
  const payload = buffer.subarray(offset + 7, end - 1);
  if (payload.length < 4) throw new Error('a method frame too short');
  return {
    frame: {
      channel: buffer.readUInt16BE(offset + 1),
      classId: payload.readUInt16BE(0),
      methodId: payload.readUInt16BE(2),
      args: payload.subarray(4),
    },
    end,
  };
}

/** A cursor over a method's arguments. */
export class ArgReader {
  private at = 0;
  constructor(private readonly bytes: Buffer) {}
  u8(): number {
    return this.bytes.readUInt8(this.advance(1));
  }
  u16(): number {
    return this.bytes.readUInt16BE(this.advance(2));
  }
  u32(): number {
    return this.bytes.readUInt32BE(this.advance(4));
  }
  shortString(): string {
    const length = this.u8();
    return this.bytes.toString('utf8', this.advance(length), this.at);
  }
  longString(): Buffer {
    const length = this.u32();
    return this.bytes.subarray(this.advance(length), this.at);
  }
  /** A field table's string values by key; other values are skipped. */
  table(): Record<string, string> {
    const body = new ArgReader(this.longString());
    const out: Record<string, string> = {};
    while (body.at < body.bytes.length) {
      const key = body.shortString();
      const value = body.fieldValue();
      if (typeof value === 'string') out[key] = value;
    }
    return out;
  }
  private fieldValue(): string | undefined {
    const type = String.fromCharCode(this.u8());
    const widths: Record<string, number> = {
      t: 1,
      b: 1,
      B: 1,
      s: 2,
      u: 2,
      I: 4,
      i: 4,
      l: 8,
      L: 8,
      f: 4,
      d: 8,
      D: 5,
      T: 8,
      V: 0,
    };
    const width = widths[type];
    if (width !== undefined) {
      this.advance(width);
      return undefined;
    }
    if (type === 'S') return this.longString().toString('utf8');
    if (type === 'x' || type === 'F' || type === 'A') {
      this.longString();
      return undefined;
    }
    throw new Error(`a field of unknown type ${JSON.stringify(type)}`);
  }
  private advance(bytes: number): number {
    const start = this.at;
    if (start + bytes > this.bytes.length) throw new Error('a method frame cut short');
    this.at += bytes;
    return start;
  }
}
