// Bounds-checked reading of A2S replies, and the error a malformed one raises.

/** A malformed or unsupported datagram; its message is shown to users after "unexpected response: ". */
export class A2sFormatError extends Error {
  override name = 'A2sFormatError';
}

/** Bounds-checked little-endian reads; running past the end is a format error, never a RangeError. */
export class Reader {
  private offset = 0;

  constructor(
    private readonly buffer: Buffer,
    private readonly what = 'info reply',
  ) {}

  done(): boolean {
    return this.offset >= this.buffer.length;
  }

  skip(bytes: number): void {
    this.need(bytes);
    this.offset += bytes;
  }

  byte(): number {
    this.need(1);
    return this.buffer.readUInt8(this.offset++);
  }

  short(): number {
    this.need(2);
    const value = this.buffer.readUInt16LE(this.offset);
    this.offset += 2;
    return value;
  }

  int(): number {
    this.need(4);
    const value = this.buffer.readInt32LE(this.offset);
    this.offset += 4;
    return value;
  }

  float(): number {
    this.need(4);
    const value = this.buffer.readFloatLE(this.offset);
    this.offset += 4;
    return value;
  }

  longLong(): bigint {
    this.need(8);
    const value = this.buffer.readBigUInt64LE(this.offset);
    this.offset += 8;
    return value;
  }

  string(): string {
    const end = this.buffer.indexOf(0, this.offset);
    if (end === -1) throw new A2sFormatError(`${this.what} is truncated (unterminated string)`);
    const value = this.buffer.toString('utf8', this.offset, end);
    this.offset = end + 1;
    return value;
  }

  private need(bytes: number): void {
    if (this.offset + bytes > this.buffer.length) throw new A2sFormatError(`${this.what} is truncated`);
  }
}
