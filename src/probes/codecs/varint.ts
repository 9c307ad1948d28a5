// VarInt, the little-endian base-128 integer that frames every Minecraft Java packet (at most 5 bytes, a signed 32-bit value).

/** A VarInt never takes more than 5 bytes: 5 × 7 bits cover 32. */
export const VARINT_MAX_BYTES = 5;

export interface DecodedVarInt {
  value: number;
  /** How many bytes the VarInt took. */
  bytes: number;
}

/** Encodes a 32-bit integer; negative numbers take 5 bytes, as in the protocol (−1 is ff ff ff ff 0f). */
export function encodeVarInt(value: number): Buffer {
  if (!Number.isInteger(value) || value < -0x80000000 || value > 0x7fffffff)
    throw new RangeError(`${value} does not fit a VarInt`);
  const out: number[] = [];
  let rest = value >>> 0;
  do {
    let byte = rest & 0x7f;
    rest >>>= 7;
    if (rest !== 0) byte |= 0x80;
    out.push(byte);
  } while (rest !== 0);
  return Buffer.from(out);
}

/**
 * Reads a VarInt at `offset`; undefined when the buffer ends before it does (more bytes are needed).
 * Throws when the VarInt runs past 5 bytes, so a peer cannot make us read an endless number.
 */
export function decodeVarInt(buffer: Uint8Array, offset = 0): DecodedVarInt | undefined {
  let result = 0;
  for (let i = 0; i < VARINT_MAX_BYTES; i++) {
    const byte = buffer[offset + i];
    if (byte === undefined) return undefined;
    result |= (byte & 0x7f) << (7 * i);
    if ((byte & 0x80) === 0) return { value: result | 0, bytes: i + 1 };
  }
  throw new Error(`VarInt longer than ${VARINT_MAX_BYTES} bytes`);
}
