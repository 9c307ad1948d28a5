// RakNet Unconnected Ping and Pong, and the Minecraft Bedrock advertisement a pong carries.

/** OFFLINE_MESSAGE_DATA_ID: the 16 bytes that mark an offline RakNet message, so stray datagrams are told apart. */
export const RAKNET_MAGIC = Buffer.from('00ffff00fefefefefdfdfdfd12345678', 'hex');
export const UNCONNECTED_PING = 0x01;
export const UNCONNECTED_PONG = 0x1c;

/** id, time, magic, client GUID. */
const PING_BYTES = 1 + 8 + 16 + 8;
/** id, time, server GUID, magic, string length: the pong before its advertisement. */
const PONG_HEADER_BYTES = 1 + 8 + 8 + 16 + 2;

export interface UnconnectedPing {
  /** Echoed by the server, which lets a reply be matched to the ping it answers. */
  time: bigint;
  clientGuid: bigint;
}

export interface UnconnectedPong {
  time: bigint;
  serverGuid: bigint;
  advertisement: string;
}

export function encodeUnconnectedPing({ time, clientGuid }: UnconnectedPing): Buffer {
  const packet = Buffer.alloc(PING_BYTES);
  packet[0] = UNCONNECTED_PING;
  packet.writeBigInt64BE(time, 1);
  RAKNET_MAGIC.copy(packet, 9);
  packet.writeBigInt64BE(clientGuid, 25);
  return packet;
}

/** Decodes an Unconnected Pong; throws on anything else (wrong id, short packet, bad magic, cut string). */
export function decodeUnconnectedPong(packet: Buffer): UnconnectedPong {
  if (packet.length === 0) throw new Error('empty datagram');
  if (packet[0] !== UNCONNECTED_PONG)
    throw new Error(`packet 0x${packet[0]!.toString(16).padStart(2, '0')} instead of an unconnected pong (0x1c)`);
  if (packet.length < PONG_HEADER_BYTES)
    throw new Error(`pong of ${packet.length} bytes, shorter than its ${PONG_HEADER_BYTES}-byte header`);
  if (!packet.subarray(17, 33).equals(RAKNET_MAGIC)) throw new Error('pong without the RakNet magic');
  const length = packet.readUInt16BE(33);
  if (PONG_HEADER_BYTES + length > packet.length)
    throw new Error(`advertisement of ${length} bytes does not fit its ${packet.length}-byte pong`);
  return {
    time: packet.readBigInt64BE(1),
    serverGuid: packet.readBigInt64BE(9),
    advertisement: packet.toString('utf8', PONG_HEADER_BYTES, PONG_HEADER_BYTES + length),
  };
}

export interface BedrockAdvertisement {
  /** MCPE for Bedrock, MCEE for Education Edition. */
  edition: 'MCPE' | 'MCEE';
  motd: string;
  protocol: number;
  version: string;
  players: number;
  maxPlayers: number;
  serverId: string | null;
  /** The second MOTD line; vanilla servers put the world (level) name there. */
  levelName: string | null;
  gameMode: string | null;
}

/** Parses "MCPE;motd;protocol;version;players;max;serverId;levelName;gameMode;…"; throws when it is not one. */
export function parseBedrockAdvertisement(text: string): BedrockAdvertisement {
  const fields = text.split(';');
  const [edition, motd, protocol, version, players, maxPlayers, serverId, levelName, gameMode] = fields;
  if (edition !== 'MCPE' && edition !== 'MCEE')
    throw new Error(`advertisement of unknown edition ${JSON.stringify(clipped(edition ?? ''))}`);
  if (fields.length < 6) throw new Error(`advertisement with ${fields.length} fields instead of at least 6`);
  return {
    edition,
    motd: motd!,
    protocol: whole(protocol, 'protocol'),
    version: version!,
    players: whole(players, 'player count'),
    maxPlayers: whole(maxPlayers, 'maximum player count'),
    serverId: serverId || null,
    levelName: levelName || null,
    gameMode: gameMode || null,
  };
}

function whole(field: string | undefined, what: string): number {
  const value = Number(field);
  if (field === undefined || field.trim() === '' || !Number.isSafeInteger(value) || value < 0)
    throw new Error(`advertisement ${what} ${JSON.stringify(clipped(field ?? ''))} is not a whole number`);
  return value;
}

function clipped(text: string): string {
  return text.length > 40 ? `${text.slice(0, 39)}…` : text;
}
