// RCON packets byte for byte, and the decoder that reads them from a stream under a size cap.
import { describe, expect, it } from 'vitest';
import { encodeRconPacket, RCON_TYPE, RconDecoder, RconFormatError } from './rcon-packet.js';

const hex = (text: string) => Buffer.from(text.replace(/\s+/g, ''), 'hex');

describe('encodeRconPacket', () => {
  it('writes size, id, type, body and two NULs, little endian', () => {
    expect(encodeRconPacket({ id: 1, type: RCON_TYPE.auth, body: 'pw' })).toEqual(
      hex('0C000000 01000000 03000000 7077 00 00'),
    );
  });

  it('writes an empty body as the minimum size of 10', () => {
    expect(encodeRconPacket({ id: -1, type: RCON_TYPE.responseValue, body: '' })).toEqual(
      hex('0A000000 FFFFFFFF 00000000 00 00'),
    );
  });
});

describe('RconDecoder', () => {
  it('decodes packets split and joined arbitrarily across chunks', () => {
    const stream = Buffer.concat([
      encodeRconPacket({ id: 7, type: 0, body: '' }),
      encodeRconPacket({ id: 7, type: 2, body: '' }),
      encodeRconPacket({ id: 8, type: 0, body: 'hostname: test\n' }),
    ]);
    const decoder = new RconDecoder(4096);
    const packets = [];
    for (let offset = 0; offset < stream.length; offset += 5)
      packets.push(...decoder.push(stream.subarray(offset, offset + 5)));
    expect(packets).toEqual([
      { id: 7, type: 0, body: '' },
      { id: 7, type: 2, body: '' },
      { id: 8, type: 0, body: 'hostname: test\n' },
    ]);
  });

  it('reads negative ids (a failed authentication)', () => {
    expect(new RconDecoder(4096).push(hex('0A000000 FFFFFFFF 02000000 00 00'))).toEqual([
      { id: -1, type: 2, body: '' },
    ]);
  });

  it('refuses a size field above its limit before buffering the packet', () => {
    const decoder = new RconDecoder(4096);
    expect(() => decoder.push(hex('FFFFFF7F'))).toThrow(RconFormatError);
    expect(() => new RconDecoder(4096).push(hex('FFFFFF7F'))).toThrow(
      'packet size 2147483647 exceeds the limit of 4096 bytes',
    );
  });

  it('refuses a size below 10, and a negative one', () => {
    expect(() => new RconDecoder(4096).push(hex('09000000'))).toThrow(/below the minimum of 10/);
    expect(() => new RconDecoder(4096).push(hex('FEFFFFFF'))).toThrow(/packet size -2/);
  });

  it('waits for the rest of a packet', () => {
    const decoder = new RconDecoder(4096);
    const packet = encodeRconPacket({ id: 3, type: 0, body: 'abc' });
    expect(decoder.push(packet.subarray(0, 10))).toEqual([]);
    expect(decoder.push(packet.subarray(10))).toEqual([{ id: 3, type: 0, body: 'abc' }]);
  });
});
