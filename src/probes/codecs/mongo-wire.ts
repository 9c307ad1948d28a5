// The MongoDB wire protocol, as much as one command needs: OP_MSG (MongoDB 3.6 and later) with a single body section
// each way. A message is a 16-byte header (length, request id, the id it answers, op code), then flag bits and
// sections; the body is one BSON document.
import { BSON, type Document } from 'bson';
import { firstBytes } from '../answer.js';

export const OP_MSG = 2013;
const HEADER_BYTES = 16;
/** flagBits: a CRC-32C follows the sections. */
const CHECKSUM_PRESENT = 1;

export function opMsg(requestId: number, command: Document): Buffer {
  const body = BSON.serialize(command);
  const message = Buffer.alloc(HEADER_BYTES + 5 + body.length);
  message.writeInt32LE(message.length, 0);
  message.writeInt32LE(requestId, 4);
  message.writeInt32LE(0, 8);
  message.writeInt32LE(OP_MSG, 12);
  // flagBits 0, then a kind-0 (body) section.
  message.writeUInt32LE(0, 16);
  message.writeUInt8(0, 20);
  message.set(body, 21);
  return message;
}

export interface WireMessage {
  responseTo: number;
  opCode: number;
  /** What follows the header. */
  payload: Buffer;
}

/** A header that no MongoDB reply starts with, or one announcing a reply longer than a check may read. */
export class WireError extends Error {
  constructor(
    message: string,
    readonly tooLong = false,
  ) {
    super(message);
  }
}

/**
 * The message at the start of `buffer` and where it ends, or undefined while it is still arriving. Throws a WireError
 * once its header has arrived if that is no OP_MSG header, or if the message is longer than `maxBytes`.
 */
export function readMessage(buffer: Buffer, maxBytes: number): { message: WireMessage; end: number } | undefined {
  if (buffer.length < HEADER_BYTES) return undefined;
  const length = buffer.readInt32LE(0);
  const opCode = buffer.readInt32LE(12);
  if (opCode !== OP_MSG || length < HEADER_BYTES + 5) throw new WireError(`its answer began ${firstBytes(buffer)}`);
  if (length > maxBytes) throw new WireError(`a reply of ${length} bytes`, true);
  if (buffer.length < length) return undefined;
  return {
    message: {
      responseTo: buffer.readInt32LE(8),
      opCode,
      payload: buffer.subarray(HEADER_BYTES, length),
    },
    end: length,
  };
}

/** The body document of an OP_MSG reply; document sequences (kind 1), which a command reply has none of, are skipped. */
export function replyDocument(payload: Buffer): Document {
  const flags = payload.readUInt32LE(0);
  const end = payload.length - (flags & CHECKSUM_PRESENT ? 4 : 0);
  let offset = 4;
  while (offset < end) {
    const kind = payload[offset];
    const size = payload.readInt32LE(offset + 1);
    if (size < 5 || offset + 1 + size > end) throw new Error('a section runs past the message');
    if (kind === 0) return BSON.deserialize(payload.subarray(offset + 1, offset + 1 + size));
    if (kind !== 1) throw new Error(`a section of kind ${kind}`);
    offset += 1 + size;
  }
  throw new Error('a reply without a body');
}
