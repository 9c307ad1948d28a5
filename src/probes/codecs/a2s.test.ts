// The A2S codec byte for byte: the info request, challenges, split reassembly and the info reply, well formed and not.
import { describe, expect, it } from 'vitest';
import {
  A2sFormatError,
  decodeDatagram,
  decodeMessage,
  encodeInfoRequest,
  parseInfo,
  SplitReassembler,
} from './a2s.js';

const hex = (text: string) => Buffer.from(text.replace(/\s+/g, ''), 'hex');
const z = (text: string) => Buffer.from(`${text}\0`, 'utf8');

// The Counter-Strike: Source example of the Valve wiki's A2S_INFO section, assembled field by field.
const CSS_REPLY = Buffer.concat([
  hex('FF FF FF FF 49 02'),
  z('game2xs.com Counter-Strike Source #1'),
  z('de_dust'),
  z('cstrike'),
  z('Counter-Strike: Source'),
  hex('F0 00 05 10 04 64 6C 00 00'),
  z('1.0.0.22'),
]);

function split(id: number, total: number, number: number, payload: Buffer): Buffer {
  const header = Buffer.alloc(12);
  header.writeInt32LE(-2, 0);
  header.writeUInt32LE(id >>> 0, 4);
  header.writeUInt8(total, 8);
  header.writeUInt8(number, 9);
  header.writeUInt16LE(1248, 10);
  return Buffer.concat([header, payload]);
}

function splitPart(datagram: Buffer) {
  const decoded = decodeDatagram(datagram);
  if (decoded.kind !== 'split') throw new Error('expected a split part');
  return decoded;
}

describe('encodeInfoRequest', () => {
  it('writes FF FF FF FF 54 "Source Engine Query\\0"', () => {
    expect(encodeInfoRequest().toString('hex')).toBe(
      `ffffffff54${Buffer.from('Source Engine Query\0').toString('hex')}`,
    );
  });

  it('appends the challenge after the query string', () => {
    const request = encodeInfoRequest(hex('0A 0B 0C 0D'));
    expect(request.subarray(-4).toString('hex')).toBe('0a0b0c0d');
    expect(request.length).toBe(5 + 20 + 4);
  });
});

describe('decoding an info reply', () => {
  it('reads every field of the wiki example', () => {
    const datagram = decodeDatagram(CSS_REPLY);
    expect(datagram.kind).toBe('single');
    const message = decodeMessage((datagram as { message: Buffer }).message);
    expect(message).toEqual({
      type: 'info',
      info: {
        protocol: 2,
        name: 'game2xs.com Counter-Strike Source #1',
        map: 'de_dust',
        folder: 'cstrike',
        game: 'Counter-Strike: Source',
        appId: 240,
        players: 5,
        maxPlayers: 16,
        bots: 4,
        serverType: 'dedicated',
        environment: 'linux',
        passwordProtected: false,
        vac: false,
        version: '1.0.0.22',
      },
    });
  });

  it('reads the Extra Data Flag fields in their order', () => {
    const body = Buffer.concat([
      hex('11'),
      z('name'),
      z('map'),
      z('folder'),
      z('game'),
      hex('DA 02 01 02 00 64 77 01 01'),
      z('1.2.3'),
      hex('F1'),
      hex('87 69'), // game port 27015
      hex('01 00 00 00 01 00 10 01'), // steam id
      hex('88 69'),
      z('tv'),
      z('secure,alltalk'),
      hex('DA 02 00 00 00 00 00 00'),
    ]);
    const info = parseInfo(body);
    expect(info).toMatchObject({
      appId: 730,
      environment: 'windows',
      passwordProtected: true,
      vac: true,
      gamePort: 27015,
      steamId: '76561197960265729',
      sourceTvPort: 27016,
      sourceTvName: 'tv',
      keywords: 'secure,alltalk',
      gameId: '730',
    });
  });

  it("skips The Ship's three extra bytes before the version", () => {
    const body = Buffer.concat([
      hex('07'),
      z('n'),
      z('m'),
      z('ship'),
      z('The Ship'),
      hex('60 09 01 02 00 64 77 00 00'),
      hex('00 04 03'),
      z('1.0'),
    ]);
    expect(parseInfo(body)).toMatchObject({ appId: 2400, version: '1.0' });
  });

  it('reads a challenge', () => {
    expect(decodeMessage(hex('41 01 02 03 04'))).toEqual({ type: 'challenge', challenge: hex('01 02 03 04') });
  });

  it('reports a truncated reply as a format error, not a RangeError', () => {
    expect(() => decodeMessage(CSS_REPLY.subarray(4, 30))).toThrow(A2sFormatError);
    expect(() => decodeMessage(CSS_REPLY.subarray(4, CSS_REPLY.length - 12))).toThrow(/truncated/);
  });

  it('tells other message types apart', () => {
    expect(decodeMessage(hex('44 00'))).toEqual({ type: 'players', players: [] });
    expect(decodeMessage(hex('45 00'))).toEqual({ type: 'other', code: 0x45 });
    expect(() => decodeMessage(hex('6D 00'))).toThrow(/GoldSource/);
  });

  it('refuses packets that are not A2S', () => {
    expect(() => decodeDatagram(Buffer.from('HTTP/1.1 400'))).toThrow(/not an A2S packet \(header 48 54 54 50\)/);
    expect(() => decodeDatagram(hex('FF FF'))).toThrow(/too short/);
  });
});

describe('SplitReassembler', () => {
  const limits = { maxParts: 4, maxBytes: 256 };

  it('reassembles parts that arrive out of order and ignores duplicates', () => {
    const reassembler = new SplitReassembler(limits);
    const pieces = [CSS_REPLY.subarray(0, 30), CSS_REPLY.subarray(30, 60), CSS_REPLY.subarray(60)];
    expect(reassembler.add(splitPart(split(7, 3, 2, pieces[2]!)))).toBeUndefined();
    expect(reassembler.add(splitPart(split(7, 3, 0, pieces[0]!)))).toBeUndefined();
    expect(reassembler.add(splitPart(split(7, 3, 0, pieces[0]!)))).toBeUndefined();
    const whole = reassembler.add(splitPart(split(7, 3, 1, pieces[1]!)));
    expect(whole).toEqual(CSS_REPLY.subarray(4));
  });

  it('refuses compressed replies plainly', () => {
    const reassembler = new SplitReassembler(limits);
    expect(() => reassembler.add(splitPart(split(0x80000007, 2, 0, Buffer.alloc(10))))).toThrow(
      'compressed responses are not supported',
    );
  });

  it('refuses a total above the part limit before storing anything', () => {
    const reassembler = new SplitReassembler(limits);
    expect(() => reassembler.add(splitPart(split(1, 200, 0, Buffer.alloc(10))))).toThrow(
      /200 packets exceeds the limit of 4/,
    );
  });

  it('caps parts across reply ids, so endless new ids cannot pile up', () => {
    const reassembler = new SplitReassembler(limits);
    for (let id = 1; id <= 4; id++) reassembler.add(splitPart(split(id, 2, 0, Buffer.alloc(10))));
    expect(() => reassembler.add(splitPart(split(5, 2, 0, Buffer.alloc(10))))).toThrow(/more than 4 split packets/);
  });

  it('caps the bytes kept', () => {
    const reassembler = new SplitReassembler(limits);
    reassembler.add(splitPart(split(1, 3, 0, Buffer.alloc(200))));
    expect(() => reassembler.add(splitPart(split(1, 3, 1, Buffer.alloc(200))))).toThrow(/limit of 256 bytes/);
  });

  it('refuses a part number outside its total and totals that disagree', () => {
    const reassembler = new SplitReassembler(limits);
    expect(() => reassembler.add(splitPart(split(1, 2, 2, Buffer.alloc(1))))).toThrow(/out of range/);
    reassembler.add(splitPart(split(2, 2, 0, Buffer.alloc(1))));
    expect(() => reassembler.add(splitPart(split(2, 3, 1, Buffer.alloc(1))))).toThrow(/disagree/);
  });

  it('refuses a reassembled reply without the simple header', () => {
    const reassembler = new SplitReassembler(limits);
    reassembler.add(splitPart(split(3, 2, 0, Buffer.from('abc'))));
    expect(() => reassembler.add(splitPart(split(3, 2, 1, Buffer.from('defgh'))))).toThrow(/simple header/);
  });
});
