// VarInt encoding against the protocol's published examples, and the 5-byte limit.
import { describe, expect, it } from 'vitest';
import { decodeVarInt, encodeVarInt } from './varint.js';

// The worked examples from the protocol documentation's VarInt table.
const examples: [number, string][] = [
  [0, '00'],
  [1, '01'],
  [2, '02'],
  [127, '7f'],
  [128, '8001'],
  [255, 'ff01'],
  [25565, 'ddc701'],
  [2097151, 'ffff7f'],
  [2147483647, 'ffffffff07'],
  [-1, 'ffffffff0f'],
  [-2147483648, '8080808008'],
];

describe('VarInt', () => {
  it.each(examples)('encodes %i as %s', (value, hex) => {
    expect(encodeVarInt(value).toString('hex')).toBe(hex);
  });

  it.each(examples)('decodes %i from %s', (value, hex) => {
    expect(decodeVarInt(Buffer.from(hex, 'hex'))).toEqual({ value, bytes: hex.length / 2 });
  });

  it('decodes at an offset and ignores what follows', () => {
    expect(decodeVarInt(Buffer.from('aaddc70199', 'hex'), 1)).toEqual({ value: 25565, bytes: 3 });
  });

  it('asks for more bytes when the buffer ends inside a VarInt', () => {
    expect(decodeVarInt(Buffer.alloc(0))).toBeUndefined();
    expect(decodeVarInt(Buffer.from('ffff', 'hex'))).toBeUndefined();
  });

  it('refuses a VarInt longer than 5 bytes', () => {
    expect(() => decodeVarInt(Buffer.from('ffffffffff01', 'hex'))).toThrow('VarInt longer than 5 bytes');
  });

  it('refuses to encode what does not fit 32 bits', () => {
    expect(() => encodeVarInt(2 ** 31)).toThrow(RangeError);
    expect(() => encodeVarInt(1.5)).toThrow(RangeError);
  });
});
