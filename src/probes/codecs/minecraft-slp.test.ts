// Server List Ping packets byte for byte, the capped packet reader, and the status JSON made plain.
import { describe, expect, it } from 'vitest';
import {
  decodePong,
  decodeStatusResponse,
  decodeString,
  encodeHandshake,
  encodePacket,
  encodePingRequest,
  encodeStatusRequest,
  encodeString,
  flattenChat,
  PacketReader,
  parseStatus,
  ResponseTooLargeError,
  STATUS_LIMITS,
  stripLegacyFormatting,
} from './minecraft-slp.js';

describe('Server List Ping packets', () => {
  it('lays out the handshake: length, id 0x00, VarInt protocol, String host, unsigned short port, VarInt next state 1', () => {
    const packet = encodeHandshake({ protocolVersion: 767, host: 'localhost', port: 25565 });
    // 1 (id) + 2 (767) + 1 + 9 (host) + 2 (port) + 1 (state) = 16
    expect(packet.toString('hex')).toBe(
      `10 00 ff05 09 ${Buffer.from('localhost').toString('hex')} 63dd 01`.replace(/ /g, ''),
    );
  });

  it('encodes protocol -1 as a five-byte VarInt', () => {
    const packet = encodeHandshake({ protocolVersion: -1, host: 'a', port: 1 });
    expect(packet.toString('hex')).toBe('0b00ffffffff0f0161000101');
  });

  it('lays out the status request and the ping request', () => {
    expect(encodeStatusRequest().toString('hex')).toBe('0100');
    expect(encodePingRequest(0x0102030405060708n).toString('hex')).toBe('09010102030405060708');
  });

  it('writes strings as a VarInt byte length then UTF-8', () => {
    expect(encodeString('é').toString('hex')).toBe('02c3a9');
    expect(decodeString(Buffer.from('02c3a9', 'hex'))).toEqual({ value: 'é', bytes: 3 });
  });

  it('refuses a string longer than its packet', () => {
    expect(() => decodeString(Buffer.from('0561', 'hex'))).toThrow('does not fit');
  });

  it('reads the status JSON and the pong', () => {
    expect(decodeStatusResponse({ id: 0, body: encodeString('{"a":1}') })).toBe('{"a":1}');
    expect(decodePong({ id: 1, body: Buffer.from('0000000000000007', 'hex') })).toBe(7n);
  });

  it('names the packet it got when it is not the one expected', () => {
    expect(() => decodeStatusResponse({ id: 0x1a, body: Buffer.alloc(0) })).toThrow('got packet 0x1a');
    expect(() => decodePong({ id: 0, body: Buffer.alloc(8) })).toThrow('expected a pong');
    expect(() => decodePong({ id: 1, body: Buffer.alloc(4) })).toThrow('4 bytes instead of 8');
  });
});

describe('PacketReader', () => {
  it('reassembles packets split across chunks, one byte at a time', () => {
    const bytes = Buffer.concat([encodePacket(0x00, encodeString('hello')), encodePacket(0x01, Buffer.alloc(8, 1))]);
    const reader = new PacketReader(1024);
    const packets = [];
    for (const byte of bytes) {
      reader.push(Buffer.from([byte]));
      for (let packet = reader.next(); packet; packet = reader.next()) packets.push(packet);
    }
    expect(packets.map((p) => p.id)).toEqual([0, 1]);
    expect(decodeStatusResponse(packets[0]!)).toBe('hello');
  });

  it('refuses a packet announcing more than the limit as soon as its length is read', () => {
    const reader = new PacketReader(1024);
    reader.push(Buffer.from('ffffffff07', 'hex'));
    expect(() => reader.next()).toThrow(ResponseTooLargeError);
    expect(() => reader.next()).toThrow('the server announced 2147483647 bytes');
  });

  it('refuses a connection that sends more than the limit in total', () => {
    const reader = new PacketReader(100);
    reader.push(Buffer.alloc(60));
    expect(() => reader.push(Buffer.alloc(60))).toThrow('response too large: more than 100 bytes');
  });

  it('refuses a length VarInt longer than 5 bytes and a zero length', () => {
    const long = new PacketReader(100);
    long.push(Buffer.from('8080808080', 'hex'));
    expect(() => long.next()).toThrow('VarInt longer than 5 bytes');
    const empty = new PacketReader(100);
    empty.push(Buffer.from([0]));
    expect(() => empty.next()).toThrow('packet length 0');
  });
});

describe('status JSON', () => {
  it('keeps version, players, sample and favicon presence', () => {
    const status = parseStatus(
      JSON.stringify({
        version: { name: '§cPaper 1.21.4', protocol: 769 },
        players: { online: 3, max: 20, sample: [{ name: 'Alex', id: 'x' }, { name: '§6Steve' }, { id: 'no-name' }] },
        description: 'A server',
        favicon: 'data:image/png;base64,AAAA',
      }),
    );
    expect(status).toEqual({
      version: 'Paper 1.21.4',
      protocol: 769,
      players: 3,
      maxPlayers: 20,
      motd: 'A server',
      playerSample: ['Alex', 'Steve'],
      favicon: true,
    });
  });

  it(`caps the player sample at ${STATUS_LIMITS.sampleNames} names`, () => {
    const sample = Array.from({ length: 40 }, (_, i) => ({ name: `player${i}` }));
    expect(parseStatus(JSON.stringify({ players: { online: 40, max: 50, sample } })).playerSample).toHaveLength(
      STATUS_LIMITS.sampleNames,
    );
  });

  it('accepts a status without players or version (hidden by the server)', () => {
    expect(parseStatus('{"description":{"text":"hi"}}')).toMatchObject({
      players: null,
      maxPlayers: null,
      version: null,
      motd: 'hi',
      favicon: false,
    });
  });

  it('refuses what is not JSON, or not an object', () => {
    expect(() => parseStatus('<html>')).toThrow('status is not JSON');
    expect(() => parseStatus('[1,2]')).toThrow('not an object');
    expect(() => parseStatus('null')).toThrow('not an object');
  });
});

describe('MOTD flattening', () => {
  it('strips legacy § codes, including the §x hex form and a trailing §', () => {
    expect(stripLegacyFormatting('§aGreen §l§nbold§r §x§f§f§0§0§0§0red§')).toBe('Green bold red');
  });

  it('joins text and nested extra in order', () => {
    const motd = {
      text: '',
      extra: [
        { text: '§aWelcome ', bold: true },
        { text: 'to ', extra: [{ text: 'Warden', color: 'gold' }] },
      ],
    };
    expect(flattenChat(motd)).toBe('Welcome to Warden');
  });

  it('reads arrays, numbers and plain strings as components', () => {
    expect(flattenChat(['Season ', 3, { text: '!' }])).toBe('Season 3!');
  });

  it('fills a translated component from its fallback (or key) and arguments', () => {
    expect(flattenChat({ translate: 'x.welcome', fallback: 'Hello %s, %s!', with: ['Alex', { text: 'Steve' }] })).toBe(
      'Hello Alex, Steve!',
    );
    expect(flattenChat({ translate: 'Pos %2$s then %1$s, 100%%', with: ['a', 'b'] })).toBe('Pos b then a, 100%');
    expect(flattenChat({ translate: 'menu.online' })).toBe('menu.online');
  });

  it('keeps the two lines of a MOTD and trims the spaces used for centring', () => {
    expect(flattenChat('     §6§lSky   Block     \n   §7Now open!   ')).toBe('Sky Block\nNow open!');
  });

  it('survives components nested deeper than it will follow', () => {
    let deep: unknown = { text: 'bottom' };
    for (let i = 0; i < 10_000; i++) deep = { text: '', extra: [deep] };
    expect(flattenChat({ text: 'top', extra: [deep] })).toBe('top');
  });

  it(`clips a MOTD to ${STATUS_LIMITS.motdChars} characters`, () => {
    expect(flattenChat('x'.repeat(5000))).toHaveLength(STATUS_LIMITS.motdChars);
  });
});
