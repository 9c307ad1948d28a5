// Minecraft Java Server List Ping: the handshake, status and ping packets, a byte-capped packet reader, and the status JSON made plain.
import { z } from 'zod';
import { decodeVarInt, encodeVarInt, VARINT_MAX_BYTES } from './varint.js';

/** Thrown when a peer announces or sends more than we agreed to read. */
export class ResponseTooLargeError extends Error {
  override name = 'ResponseTooLargeError';
}

export interface Handshake {
  /** -1 asks "whatever you speak"; servers answer a status whatever the number. */
  protocolVersion: number;
  host: string;
  port: number;
}

/** Handshake (0x00) asking for the status state (next state 1). */
export function encodeHandshake({ protocolVersion, host, port }: Handshake): Buffer {
  const portBytes = Buffer.alloc(2);
  portBytes.writeUInt16BE(port);
  return encodePacket(0x00, encodeVarInt(protocolVersion), encodeString(host), portBytes, encodeVarInt(1));
}

/** Status request (0x00), which has no fields. */
export function encodeStatusRequest(): Buffer {
  return encodePacket(0x00);
}

/** Ping request (0x01) with a long the server must echo. */
export function encodePingRequest(payload: bigint): Buffer {
  const body = Buffer.alloc(8);
  body.writeBigInt64BE(payload);
  return encodePacket(0x01, body);
}

export interface Packet {
  id: number;
  body: Buffer;
}

/** Frames a packet: VarInt length of (id + body), VarInt id, body. */
export function encodePacket(id: number, ...fields: Buffer[]): Buffer {
  const payload = Buffer.concat([encodeVarInt(id), ...fields]);
  return Buffer.concat([encodeVarInt(payload.length), payload]);
}

/** A protocol String: VarInt byte length, then UTF-8. */
export function encodeString(text: string): Buffer {
  const bytes = Buffer.from(text, 'utf8');
  return Buffer.concat([encodeVarInt(bytes.length), bytes]);
}

/** Reads a protocol String at `offset` of a complete packet body; throws when it runs past the body. */
export function decodeString(body: Buffer, offset = 0): { value: string; bytes: number } {
  const length = decodeVarInt(body, offset);
  if (length === undefined) throw new Error('string length cut short');
  if (length.value < 0 || offset + length.bytes + length.value > body.length)
    throw new Error(`string of ${length.value} bytes does not fit its ${body.length}-byte packet`);
  const start = offset + length.bytes;
  return { value: body.toString('utf8', start, start + length.value), bytes: length.bytes + length.value };
}

/** Status response (0x00): the status JSON as text. */
export function decodeStatusResponse(packet: Packet): string {
  if (packet.id !== 0x00) throw new Error(`expected a status response (packet 0x00), got packet ${hex(packet.id)}`);
  return decodeString(packet.body).value;
}

/** Pong response (0x01): the long we sent. */
export function decodePong(packet: Packet): bigint {
  if (packet.id !== 0x01) throw new Error(`expected a pong (packet 0x01), got packet ${hex(packet.id)}`);
  if (packet.body.length !== 8) throw new Error(`pong of ${packet.body.length} bytes instead of 8`);
  return packet.body.readBigInt64BE();
}

/**
 * Cuts a TCP stream into packets without ever holding more than `limitBytes`: a packet announcing more is refused
 * as soon as its length is read, and a connection that sends more in total is refused when it does.
 */
export class PacketReader {
  #chunks: Buffer[] = [];
  #pending = 0;
  #received = 0;
  /** Bytes the next packet needs in full, once its length is known; saves joining chunks on every trickled byte. */
  #needed = 0;

  constructor(readonly limitBytes: number) {}

  push(chunk: Buffer): void {
    this.#received += chunk.length;
    if (this.#received > this.limitBytes)
      throw new ResponseTooLargeError(`response too large: more than ${this.limitBytes} bytes`);
    this.#chunks.push(chunk);
    this.#pending += chunk.length;
  }

  /** The next complete packet, or undefined until more bytes arrive; throws on a malformed or oversized frame. */
  next(): Packet | undefined {
    if (this.#pending === 0 || this.#pending < this.#needed) return undefined;
    const buffer = this.#chunks.length === 1 ? this.#chunks[0]! : Buffer.concat(this.#chunks);
    this.#chunks = [buffer];
    const length = decodeVarInt(buffer);
    if (length === undefined) return undefined;
    if (length.value < 1) throw new Error(`packet length ${length.value}`);
    if (length.value > this.limitBytes)
      throw new ResponseTooLargeError(
        `response too large: the server announced ${length.value} bytes, the limit is ${this.limitBytes}`,
      );
    this.#needed = length.bytes + length.value;
    if (buffer.length < this.#needed) return undefined;
    const frame = buffer.subarray(length.bytes, this.#needed);
    const rest = buffer.subarray(this.#needed);
    this.#chunks = rest.length > 0 ? [rest] : [];
    this.#pending = rest.length;
    this.#needed = 0;
    const id = decodeVarInt(frame);
    if (id === undefined) throw new Error('packet ends inside its id');
    return { id: id.value, body: frame.subarray(id.bytes) };
  }
}

/** Worst-case framing around a status string: packet length, packet id and string length, each a VarInt. */
export const SLP_FRAMING_BYTES = 3 * VARINT_MAX_BYTES;

export interface ServerStatus {
  version: string | null;
  protocol: number | null;
  players: number | null;
  maxPlayers: number | null;
  motd: string;
  playerSample: string[];
  favicon: boolean;
}

export const STATUS_LIMITS = {
  /** Names kept from the player sample; servers put up to 12 there, some abuse it for whole text panels. */
  sampleNames: 12,
  sampleNameChars: 64,
  motdChars: 512,
  versionChars: 128,
  /** Chat components nest; deeper ones are dropped rather than risking the stack on a hostile status. */
  chatDepth: 32,
} as const;

const count = z.number().int().catch(-1);
const statusSchema = z.object({
  version: z.object({ name: z.unknown(), protocol: z.unknown() }).partial().nullish().catch(null),
  players: z
    .object({ online: count, max: count, sample: z.array(z.unknown()).nullish().catch(null) })
    .nullish()
    .catch(null),
  description: z.unknown().optional(),
  favicon: z.unknown().optional(),
});

/** Parses a status response's JSON into plain values; throws when it is not a status at all. */
export function parseStatus(json: string): ServerStatus {
  let raw: unknown;
  try {
    raw = JSON.parse(json);
  } catch {
    throw new Error(`status is not JSON: ${JSON.stringify(json.slice(0, 40))}`);
  }
  const parsed = statusSchema.safeParse(raw);
  if (!parsed.success) throw new Error('status JSON is not an object');
  const { version, players, description, favicon } = parsed.data;
  const sample = (players?.sample ?? [])
    .map((entry) => (entry as { name?: unknown } | null)?.name)
    .filter((name): name is string => typeof name === 'string')
    .map((name) => clip(stripLegacyFormatting(name).trim(), STATUS_LIMITS.sampleNameChars))
    .filter((name) => name.length > 0)
    .slice(0, STATUS_LIMITS.sampleNames);
  return {
    version:
      typeof version?.name === 'string'
        ? clip(stripLegacyFormatting(version.name).trim(), STATUS_LIMITS.versionChars)
        : null,
    protocol: typeof version?.protocol === 'number' && Number.isInteger(version.protocol) ? version.protocol : null,
    players: players && players.online >= 0 ? players.online : null,
    maxPlayers: players && players.max >= 0 ? players.max : null,
    motd: flattenChat(description),
    playerSample: sample,
    favicon: typeof favicon === 'string' && favicon.length > 0,
  };
}

/** A chat component (string, array, or object with text/translate/extra, nested) as plain text, § codes removed. */
export function flattenChat(component: unknown): string {
  const parts: string[] = [];
  collectChat(component, 0, parts);
  const lines = stripLegacyFormatting(parts.join(''))
    .split(/\r?\n/)
    // Servers centre their MOTD with runs of spaces; a status page wants the words.
    .map((line) => line.replace(/[ \t]+/g, ' ').trim())
    .filter((line) => line.length > 0);
  return clip(lines.join('\n'), STATUS_LIMITS.motdChars);
}

/** Removes legacy formatting codes: § followed by one character (colours, styles, and the §x§r§r… hex form). */
export function stripLegacyFormatting(text: string): string {
  return text.replace(/§[\s\S]?/gu, '');
}

function collectChat(node: unknown, depth: number, out: string[]): void {
  if (depth > STATUS_LIMITS.chatDepth || node === null || node === undefined) return;
  if (typeof node === 'string') return void out.push(node);
  if (typeof node === 'number' || typeof node === 'boolean') return void out.push(String(node));
  if (Array.isArray(node)) {
    for (const child of node) collectChat(child, depth + 1, out);
    return;
  }
  if (typeof node !== 'object') return;
  const component = node as Record<string, unknown>;
  if (typeof component.text === 'string' || typeof component.text === 'number') out.push(String(component.text));
  else if (typeof component.translate === 'string') out.push(translate(component, depth));
  else if (typeof component.keybind === 'string') out.push(component.keybind);
  if (Array.isArray(component.extra)) for (const child of component.extra) collectChat(child, depth + 1, out);
}

/** We have no language files, so a translated component shows its fallback (or its key) with its arguments filled in. */
function translate(component: Record<string, unknown>, depth: number): string {
  const template = typeof component.fallback === 'string' ? component.fallback : (component.translate as string);
  const args = Array.isArray(component.with)
    ? component.with.map((arg) => {
        const parts: string[] = [];
        collectChat(arg, depth + 1, parts);
        return parts.join('');
      })
    : [];
  let next = 0;
  return template.replace(/%(?:(\d+)\$)?([s%])/g, (_, position: string | undefined, kind: string) => {
    if (kind === '%') return '%';
    const index = position === undefined ? next++ : Number(position) - 1;
    return args[index] ?? '';
  });
}

function clip(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}

function hex(id: number): string {
  return `0x${(id >>> 0).toString(16).padStart(2, '0')}`;
}
