// Valve A2S codec: the A2S_INFO and A2S_PLAYER requests, S2C_CHALLENGE, Source split packets, S2A_INFO and S2A_PLAYER.

import { type A2sPlayer, parsePlayers } from './a2s-players.js';
import { A2sFormatError, Reader } from './a2s-reader.js';

export type { A2sPlayer } from './a2s-players.js';
export { A2sFormatError } from './a2s-reader.js';

/** Every A2S message starts with one of these 32-bit little-endian headers. */
const SIMPLE_HEADER = -1;
const SPLIT_HEADER = -2;
const A2S_INFO = 0x54;
const A2S_PLAYER = 0x55;
const S2A_PLAYER = 0x44;
/** The challenge an A2S_PLAYER request carries before the server has given one. */
const NO_CHALLENGE = Buffer.from([0xff, 0xff, 0xff, 0xff]);
const S2C_CHALLENGE = 0x41;
const S2A_INFO = 0x49;
const S2A_INFO_GOLDSRC = 0x6d;
const INFO_PAYLOAD = Buffer.from('Source Engine Query\0', 'latin1');
/** The bzip2 flag of a split reply's id (the id's most significant bit). */
const COMPRESSED_FLAG = 0x80000000;
/** The Ship (app 2400) inserts three bytes before the version. */
const THE_SHIP_APP_ID = 2400;

/** FF FF FF FF 54 "Source Engine Query\0", followed by the challenge once the server asked for one. */
export function encodeInfoRequest(challenge?: Buffer): Buffer {
  const header = Buffer.alloc(5);
  header.writeInt32LE(SIMPLE_HEADER, 0);
  header.writeUInt8(A2S_INFO, 4);
  return Buffer.concat(challenge ? [header, INFO_PAYLOAD, challenge] : [header, INFO_PAYLOAD]);
}

/** FF FF FF FF 55, then the server's challenge, or FF FF FF FF to ask for one. */
export function encodePlayerRequest(challenge?: Buffer): Buffer {
  const header = Buffer.alloc(5);
  header.writeInt32LE(SIMPLE_HEADER, 0);
  header.writeUInt8(A2S_PLAYER, 4);
  return Buffer.concat([header, challenge ?? NO_CHALLENGE]);
}

export type A2sDatagram =
  /** A whole message; `message` starts with its type byte. */
  | { kind: 'single'; message: Buffer }
  | { kind: 'split'; id: number; total: number; number: number; compressed: boolean; payload: Buffer };

/** Reads one datagram's header. Split parts use the Source (Orange Box and later) layout: id, total, number, size. */
export function decodeDatagram(datagram: Buffer): A2sDatagram {
  if (datagram.length < 5) throw new A2sFormatError(`a ${datagram.length}-byte packet is too short for A2S`);
  const header = datagram.readInt32LE(0);
  if (header === SIMPLE_HEADER) return { kind: 'single', message: datagram.subarray(4) };
  if (header !== SPLIT_HEADER) throw new A2sFormatError(`not an A2S packet (header ${hex(datagram.subarray(0, 4))})`);
  if (datagram.length < 12) throw new A2sFormatError('split packet header is truncated');
  const id = datagram.readUInt32LE(4);
  return {
    kind: 'split',
    id,
    total: datagram.readUInt8(8),
    number: datagram.readUInt8(9),
    compressed: (id & COMPRESSED_FLAG) !== 0,
    // Bytes 10–11 hold the server's packet-switching size, which reassembly does not need.
    payload: datagram.subarray(12),
  };
}

export interface SplitLimits {
  /** Most parts kept at once, across every reply id. */
  maxParts: number;
  /** Most payload bytes kept at once, across every reply id. */
  maxBytes: number;
}

/** Collects split parts until one reply is whole, refusing anything past its limits. */
export class SplitReassembler {
  private readonly replies = new Map<number, { total: number; parts: (Buffer | undefined)[]; received: number }>();
  private parts = 0;
  private bytes = 0;

  constructor(private readonly limits: SplitLimits) {}

  /** Returns the whole message (starting with its type byte) once every part of its reply has arrived. */
  add(part: Extract<A2sDatagram, { kind: 'split' }>): Buffer | undefined {
    if (part.compressed) throw new A2sFormatError('compressed responses are not supported');
    if (part.total < 1 || part.number >= part.total)
      throw new A2sFormatError(`split packet ${part.number + 1} of ${part.total} is out of range`);
    if (part.total > this.limits.maxParts)
      throw new A2sFormatError(`a reply split into ${part.total} packets exceeds the limit of ${this.limits.maxParts}`);
    let reply = this.replies.get(part.id);
    if (!reply) {
      reply = { total: part.total, parts: new Array(part.total).fill(undefined), received: 0 };
      this.replies.set(part.id, reply);
    }
    if (reply.total !== part.total) throw new A2sFormatError('split packets disagree on their total');
    // A duplicated part (a resent request answered twice) adds nothing.
    if (reply.parts[part.number]) return undefined;
    this.parts += 1;
    this.bytes += part.payload.length;
    if (this.parts > this.limits.maxParts)
      throw new A2sFormatError(`more than ${this.limits.maxParts} split packets arrived`);
    if (this.bytes > this.limits.maxBytes)
      throw new A2sFormatError(`split packets exceed the limit of ${this.limits.maxBytes} bytes`);
    reply.parts[part.number] = part.payload;
    reply.received += 1;
    if (reply.received < reply.total) return undefined;

    this.replies.delete(part.id);
    const whole = Buffer.concat(reply.parts as Buffer[]);
    // The reassembled payload is itself a simple message, FF FF FF FF included.
    if (whole.length < 5 || whole.readInt32LE(0) !== SIMPLE_HEADER)
      throw new A2sFormatError('reassembled split reply does not start with the simple header');
    return whole.subarray(4);
  }
}

export type A2sMessage =
  | { type: 'challenge'; challenge: Buffer }
  | { type: 'info'; info: A2sInfo }
  | { type: 'players'; players: A2sPlayer[] }
  | { type: 'other'; code: number };

/** Decodes a whole message: its first byte says what it is. */
export function decodeMessage(message: Buffer): A2sMessage {
  const code = message[0];
  if (code === undefined) throw new A2sFormatError('empty message');
  if (code === S2C_CHALLENGE) {
    if (message.length < 5) throw new A2sFormatError('challenge is truncated');
    return { type: 'challenge', challenge: Buffer.from(message.subarray(1, 5)) };
  }
  if (code === S2A_INFO) return { type: 'info', info: parseInfo(message.subarray(1)) };
  if (code === S2A_PLAYER) return { type: 'players', players: parsePlayers(message.subarray(1)) };
  if (code === S2A_INFO_GOLDSRC) throw new A2sFormatError('obsolete GoldSource info reply (0x6D) is not supported');
  return { type: 'other', code };
}

export type ServerType = 'dedicated' | 'listen' | 'proxy' | 'unknown';
export type Environment = 'linux' | 'windows' | 'mac' | 'unknown';

export interface A2sInfo {
  protocol: number;
  name: string;
  map: string;
  folder: string;
  game: string;
  appId: number;
  /** As reported: Source servers count bots here too. */
  players: number;
  maxPlayers: number;
  bots: number;
  serverType: ServerType;
  environment: Environment;
  passwordProtected: boolean;
  vac: boolean;
  version: string;
  /** Extra Data Flag fields, present only when the server sends them. */
  gamePort?: number;
  steamId?: string;
  sourceTvPort?: number;
  sourceTvName?: string;
  keywords?: string;
  gameId?: string;
}

/** Parses an S2A_INFO body (the bytes after its 0x49 type byte). */
export function parseInfo(body: Buffer): A2sInfo {
  const reader = new Reader(body);
  const protocol = reader.byte();
  const name = reader.string();
  const map = reader.string();
  const folder = reader.string();
  const game = reader.string();
  const appId = reader.short();
  const players = reader.byte();
  const maxPlayers = reader.byte();
  const bots = reader.byte();
  const serverType = SERVER_TYPES[String.fromCharCode(reader.byte())] ?? 'unknown';
  const environment = ENVIRONMENTS[String.fromCharCode(reader.byte())] ?? 'unknown';
  const passwordProtected = reader.byte() === 1;
  const vac = reader.byte() === 1;
  if (appId === THE_SHIP_APP_ID) reader.skip(3);
  const version = reader.string();
  const info: A2sInfo = {
    protocol,
    name,
    map,
    folder,
    game,
    appId,
    players,
    maxPlayers,
    bots,
    serverType,
    environment,
    passwordProtected,
    vac,
    version,
  };
  if (reader.done()) return info;

  const flags = reader.byte();
  if (flags & 0x80) info.gamePort = reader.short();
  if (flags & 0x10) info.steamId = reader.longLong().toString();
  if (flags & 0x40) {
    info.sourceTvPort = reader.short();
    info.sourceTvName = reader.string();
  }
  if (flags & 0x20) info.keywords = reader.string();
  if (flags & 0x01) info.gameId = reader.longLong().toString();
  return info;
}

const SERVER_TYPES: Record<string, ServerType> = {
  d: 'dedicated',
  D: 'dedicated',
  l: 'listen',
  L: 'listen',
  p: 'proxy',
  P: 'proxy',
};
const ENVIRONMENTS: Record<string, Environment> = {
  l: 'linux',
  L: 'linux',
  w: 'windows',
  W: 'windows',
  m: 'mac',
  o: 'mac',
};

function hex(bytes: Buffer): string {
  return bytes
    .toString('hex')
    .replace(/(..)(?!$)/g, '$1 ')
    .toUpperCase();
}
