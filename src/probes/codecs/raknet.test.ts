// RakNet Unconnected Ping/Pong byte for byte, and the Bedrock advertisement string.
import { describe, expect, it } from 'vitest';
import { decodeUnconnectedPong, encodeUnconnectedPing, parseBedrockAdvertisement, RAKNET_MAGIC } from './raknet.js';

const MAGIC_HEX = '00ffff00fefefefefdfdfdfd12345678';

function pong(advertisement: string, { magic = MAGIC_HEX, id = '1c' } = {}): Buffer {
  const text = Buffer.from(advertisement);
  const length = Buffer.alloc(2);
  length.writeUInt16BE(text.length);
  return Buffer.concat([Buffer.from(`${id}00000000000000070000000000000009${magic}`, 'hex'), length, text]);
}

describe('Unconnected Ping', () => {
  it('is id 0x01, int64 time, the offline magic, int64 client GUID', () => {
    const packet = encodeUnconnectedPing({ time: 0x0102030405060708n, clientGuid: -2n });
    expect(packet.toString('hex')).toBe(`01 0102030405060708 ${MAGIC_HEX} fffffffffffffffe`.replace(/ /g, ''));
    expect(RAKNET_MAGIC.toString('hex')).toBe(MAGIC_HEX);
  });
});

describe('Unconnected Pong', () => {
  it('gives back time, server GUID and advertisement', () => {
    expect(decodeUnconnectedPong(pong('MCPE;Hi;1;1;0;1;'))).toEqual({
      time: 7n,
      serverGuid: 9n,
      advertisement: 'MCPE;Hi;1;1;0;1;',
    });
  });

  it('refuses other packets, short packets, a wrong magic and a cut advertisement', () => {
    expect(() => decodeUnconnectedPong(Buffer.alloc(0))).toThrow('empty datagram');
    expect(() => decodeUnconnectedPong(pong('x', { id: '1d' }))).toThrow('packet 0x1d');
    expect(() => decodeUnconnectedPong(Buffer.from('1c0000', 'hex'))).toThrow('shorter than');
    expect(() => decodeUnconnectedPong(pong('x', { magic: '00'.repeat(16) }))).toThrow('without the RakNet magic');
    expect(() => decodeUnconnectedPong(pong('MCPE;long').subarray(0, 40))).toThrow('does not fit');
  });
});

describe('Bedrock advertisement', () => {
  it('reads a vanilla dedicated server advertisement', () => {
    expect(
      parseBedrockAdvertisement(
        'MCPE;Dedicated Server;766;1.21.50;3;10;13253860892328930865;Bedrock level;Survival;1;19132;19133;',
      ),
    ).toEqual({
      edition: 'MCPE',
      motd: 'Dedicated Server',
      protocol: 766,
      version: '1.21.50',
      players: 3,
      maxPlayers: 10,
      serverId: '13253860892328930865',
      levelName: 'Bedrock level',
      gameMode: 'Survival',
    });
  });

  it('reads Education Edition and a short advertisement without the optional fields', () => {
    expect(parseBedrockAdvertisement('MCEE;Class;589;1.20.0;0;30')).toMatchObject({
      edition: 'MCEE',
      levelName: null,
      gameMode: null,
      serverId: null,
    });
  });

  it('refuses an unknown edition, missing fields and counts that are not numbers', () => {
    expect(() => parseBedrockAdvertisement('HTTP/1.1 400')).toThrow('unknown edition');
    expect(() => parseBedrockAdvertisement('MCPE;a;1;1.0')).toThrow('4 fields');
    expect(() => parseBedrockAdvertisement('MCPE;a;1;1.0;many;10')).toThrow('player count "many"');
    expect(() => parseBedrockAdvertisement('MCPE;a;;1.0;1;10')).toThrow('protocol');
  });
});
