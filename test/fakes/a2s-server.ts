// A fake Source server answering A2S_INFO (and A2S_PLAYER) over UDP, byte for byte as the Valve wiki describes, well or badly on demand.
import { createSocket, type RemoteInfo } from 'node:dgram';

export interface FakeA2sInfo {
  protocol: number;
  name: string;
  map: string;
  folder: string;
  game: string;
  appId: number;
  players: number;
  maxPlayers: number;
  bots: number;
  serverType: 'd' | 'l' | 'p';
  environment: 'l' | 'w' | 'm' | 'o';
  visibility: 0 | 1;
  vac: 0 | 1;
  version: string;
  /** Extra Data Flag fields; none are sent when this is omitted. */
  edf?: {
    gamePort?: number;
    steamId?: bigint;
    sourceTv?: { port: number; name: string };
    keywords?: string;
    gameId?: bigint;
  };
}

export type A2sFakeMode =
  /** Answer A2S_INFO properly. */
  | 'answer'
  /** Never answer anything. */
  | 'silent'
  /** Answer with bytes that are not A2S at all. */
  | 'garbage'
  /** Answer with an info reply cut off in the middle of the map name. */
  | 'truncated'
  /** Answer with a player reply (0x44) instead of an info reply. */
  | 'wrong-type'
  /** Answer every request, even one carrying the right challenge, with a new challenge. */
  | 'challenge-loop'
  /** Answer with a bzip2-flagged split reply. */
  | 'compressed'
  /** Answer with 200 split parts, each of a different reply, none of them ever complete. */
  | 'endless-split'
  /** Answer with a split header claiming 200 parts. */
  | 'oversized-split'
  /** Answer with 10 split parts of 8 KiB each. */
  | 'bloated-split';

export interface A2sFakeOptions {
  mode?: A2sFakeMode;
  info?: Partial<FakeA2sInfo>;
  /** Demand a challenge first, as Valve servers do since December 2020. */
  challenge?: boolean;
  /** Send the info reply as this many Source split packets, last part first. */
  splitInto?: number;
  /** Wait this long before each answer. */
  delayMs?: number;
  /** Player names for A2S_PLAYER. */
  playerNames?: string[];
  /** How A2S_PLAYER is met: answered (after its challenge, as Valve servers do), or ignored (players hidden). */
  playerQuery?: 'answer' | 'silent';
}

export interface A2sFake {
  port: number;
  /** What A2S_INFO answers: tests change it between checks. */
  info: FakeA2sInfo;
  /** Every datagram received, in order. */
  requests: Buffer[];
  close(): Promise<void>;
}

export const DEFAULT_A2S_INFO: FakeA2sInfo = {
  protocol: 17,
  name: 'Warden Test Server',
  map: 'de_dust2',
  folder: 'csgo',
  game: 'Counter-Strike 2',
  appId: 730,
  players: 12,
  maxPlayers: 24,
  bots: 2,
  serverType: 'd',
  environment: 'l',
  visibility: 0,
  vac: 1,
  version: '1.40.2.1',
};

/** The payload size of each split part (what servers put in the size field). */
const SPLIT_SIZE = 1248;
const CHALLENGE = Buffer.from([0x1a, 0x2b, 0x3c, 0x4d]);
const QUERY = Buffer.from('Source Engine Query\0', 'latin1');

export async function startA2sServer(options: A2sFakeOptions = {}): Promise<A2sFake> {
  const socket = createSocket('udp4');
  const requests: Buffer[] = [];
  const timers = new Set<NodeJS.Timeout>();
  const mode = options.mode ?? 'answer';
  const info = { ...DEFAULT_A2S_INFO, ...options.info };
  let splitId = 0x100;

  const reply = (datagrams: Buffer[], to: RemoteInfo) => {
    const sendAll = () => {
      for (const datagram of datagrams) socket.send(datagram, to.port, to.address, () => {});
    };
    if (!options.delayMs) return sendAll();
    const timer = setTimeout(() => {
      timers.delete(timer);
      sendAll();
    }, options.delayMs);
    timers.add(timer);
  };

  socket.on('message', (request, from) => {
    requests.push(request);
    if (mode === 'silent' || request.length < 5 || request.readInt32LE(0) !== -1) return;
    const type = request[4];
    if (type === 0x54) {
      const rest = request.subarray(5);
      if (!rest.subarray(0, QUERY.length).equals(QUERY)) return;
      const challenge = rest.subarray(QUERY.length);
      if (mode === 'challenge-loop' || (options.challenge && !challenge.equals(CHALLENGE)))
        return reply([simple(Buffer.concat([Buffer.from([0x41]), CHALLENGE]))], from);
      return reply(infoReply(), from);
    }
    if (type === 0x55 && request.length === 9 && options.playerQuery !== 'silent') {
      // FF FF FF FF 55 FF FF FF FF asks for a challenge; any other value must be the one given.
      const challenge = request.subarray(5, 9);
      if (!challenge.equals(CHALLENGE)) return reply([simple(Buffer.concat([Buffer.from([0x41]), CHALLENGE]))], from);
      const whole = simple(playerReply(options.playerNames ?? []));
      // Source servers split what does not fit their packet size (1248 bytes of payload here).
      if (whole.length <= SPLIT_SIZE) return reply([whole], from);
      return reply(splitReply(whole, Math.ceil(whole.length / SPLIT_SIZE), splitId++), from);
    }
  });

  const infoReply = (): Buffer[] => {
    switch (mode) {
      case 'garbage':
        return [Buffer.from('HTTP/1.1 400 Bad Request\r\n\r\n')];
      case 'truncated':
        return [simple(encodeInfo(info)).subarray(0, 4 + 1 + 1 + info.name.length + 1 + 3)];
      case 'wrong-type':
        return [simple(playerReply([]))];
      case 'compressed':
        return compressedSplit(simple(encodeInfo(info)), splitId++);
      case 'endless-split':
        return Array.from({ length: 200 }, () => splitPart(splitId++, 2, 0, Buffer.alloc(100, 0x61)));
      case 'oversized-split':
        return [splitPart(splitId++, 200, 0, Buffer.alloc(100, 0x61))];
      case 'bloated-split': {
        const id = splitId++;
        return Array.from({ length: 10 }, (_, n) => splitPart(id, 10, n, Buffer.alloc(8 * 1024, 0x61)));
      }
      default: {
        const whole = simple(encodeInfo(info));
        if (!options.splitInto || options.splitInto < 2) return [whole];
        return splitReply(whole, options.splitInto, splitId++).reverse();
      }
    }
  };

  await new Promise<void>((resolve) => socket.bind(0, '127.0.0.1', resolve));
  return {
    port: socket.address().port,
    info,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        for (const timer of timers) clearTimeout(timer);
        socket.close(() => resolve());
      }),
  };
}

/** The S2A_INFO payload, field by field as the wiki lists them. */
export function encodeInfo(info: FakeA2sInfo): Buffer {
  const parts: Buffer[] = [
    Buffer.from([0x49, info.protocol]),
    cString(info.name),
    cString(info.map),
    cString(info.folder),
    cString(info.game),
    uint16(info.appId),
    Buffer.from([info.players, info.maxPlayers, info.bots]),
    Buffer.from([info.serverType.charCodeAt(0), info.environment.charCodeAt(0), info.visibility, info.vac]),
  ];
  if (info.appId === 2400) parts.push(Buffer.from([0, 1, 3])); // The Ship: mode, witnesses, duration.
  parts.push(cString(info.version));
  const edf = info.edf;
  if (edf) {
    let flags = 0;
    const extra: Buffer[] = [];
    if (edf.gamePort !== undefined) {
      flags |= 0x80;
      extra.push(uint16(edf.gamePort));
    }
    if (edf.steamId !== undefined) {
      flags |= 0x10;
      extra.push(uint64(edf.steamId));
    }
    if (edf.sourceTv) {
      flags |= 0x40;
      extra.push(uint16(edf.sourceTv.port), cString(edf.sourceTv.name));
    }
    if (edf.keywords !== undefined) {
      flags |= 0x20;
      extra.push(cString(edf.keywords));
    }
    if (edf.gameId !== undefined) {
      flags |= 0x01;
      extra.push(uint64(edf.gameId));
    }
    parts.push(Buffer.from([flags]), ...extra);
  }
  return Buffer.concat(parts);
}

/** S2A_PLAYER: 0x44, the count (a byte, which wraps past 255), then index, name, score (int32) and duration (float32). */
function playerReply(names: string[]): Buffer {
  const parts: Buffer[] = [Buffer.from([0x44, names.length & 0xff])];
  names.forEach((name, index) => {
    const score = Buffer.alloc(8);
    score.writeInt32LE(index * 3, 0);
    score.writeFloatLE(60 * (index + 1), 4);
    parts.push(Buffer.from([index & 0xff]), cString(name), score);
  });
  return Buffer.concat(parts);
}

/** FF FF FF FF, then the payload. */
function simple(payload: Buffer): Buffer {
  return Buffer.concat([Buffer.from([0xff, 0xff, 0xff, 0xff]), payload]);
}

/** The whole simple message (FF FF FF FF included) cut into `count` parts, Source layout with the size field. */
function splitReply(whole: Buffer, count: number, id: number): Buffer[] {
  const size = Math.ceil(whole.length / count);
  return Array.from({ length: count }, (_, n) => splitPart(id, count, n, whole.subarray(n * size, (n + 1) * size)));
}

function splitPart(id: number, total: number, number: number, payload: Buffer): Buffer {
  const header = Buffer.alloc(12);
  header.writeInt32LE(-2, 0);
  header.writeUInt32LE(id >>> 0, 4);
  header.writeUInt8(total, 8);
  header.writeUInt8(number, 9);
  header.writeUInt16LE(SPLIT_SIZE, 10);
  return Buffer.concat([header, payload]);
}

/** A bzip2-flagged reply: the first part carries the decompressed size and CRC32 before the (here fake) bzip2 stream. */
function compressedSplit(whole: Buffer, id: number): Buffer[] {
  const sizes = Buffer.alloc(8);
  sizes.writeUInt32LE(whole.length, 0);
  sizes.writeUInt32LE(0xdeadbeef, 4);
  const stream = Buffer.concat([Buffer.from('BZh91AY&SY'), whole]);
  const flagged = (id | 0x80000000) >>> 0;
  return [
    splitPart(flagged, 2, 0, Buffer.concat([sizes, stream.subarray(0, 20)])),
    splitPart(flagged, 2, 1, stream.subarray(20)),
  ];
}

function cString(text: string): Buffer {
  return Buffer.from(`${text}\0`, 'utf8');
}

function uint16(value: number): Buffer {
  const out = Buffer.alloc(2);
  out.writeUInt16LE(value, 0);
  return out;
}

function uint64(value: bigint): Buffer {
  const out = Buffer.alloc(8);
  out.writeBigUInt64LE(value, 0);
  return out;
}
