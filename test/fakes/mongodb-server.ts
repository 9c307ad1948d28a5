// A fake MongoDB server speaking the wire protocol byte for byte: OP_QUERY (the driver's first hello) answered with
// OP_REPLY, OP_MSG answered with OP_MSG; hello, SCRAM-SHA-256 (RFC 5802/7677: the proof checked, the server signature
// sent; SCRAM-SHA-1 over MongoDB's digest of the password), ping, buildInfo, endSessions, count (a fixed n), echo (its
// argument back), and CommandNotFound for the rest. Options make it an older server (no hello), an impostor that lets
// any proof in, or one whose replies run long.
import { createHash, pbkdf2Sync, randomBytes } from 'node:crypto';
import { createServer, type Socket } from 'node:net';
import { BSON } from 'bson';
import { type ScramConversation, type ScramHash, scramConversation } from './scram-server.js';

export interface MongoFakeOptions {
  /** The one user, with its password; without it any client is let in without logging in. */
  user?: { name: string; password: string };
  /** The n answered to count. */
  count?: number;
  /** The mechanisms offered to the user (SCRAM-SHA-256 unless told). */
  mechanisms?: ('SCRAM-SHA-256' | 'SCRAM-SHA-1')[];
  /** A server from before hello (MongoDB 4.0.0): CommandNotFound to it, an answer to isMaster only. */
  beforeHello?: boolean;
  /** An impostor: any proof lets the client in, and its signature is made without the password. */
  impostor?: boolean;
  /** Bytes of padding in ping's answer. */
  padding?: number;
}

export interface MongoFake {
  port: number;
  /** The name of every command received, the handshake's included. */
  commands: string[];
  close(): Promise<void>;
}

const OP_REPLY = 1;
const OP_QUERY = 2004;
const OP_MSG = 2013;
const ITERATIONS = 4096;

/** A SASL command's payload as text. */
const payloadText = (command: BSON.Document) => Buffer.from((command.payload as BSON.Binary).buffer).toString('utf8');

function header(length: number, requestId: number, responseTo: number, opCode: number): Buffer {
  const bytes = Buffer.alloc(16);
  bytes.writeInt32LE(length, 0);
  bytes.writeInt32LE(requestId, 4);
  bytes.writeInt32LE(responseTo, 8);
  bytes.writeInt32LE(opCode, 12);
  return bytes;
}

function opReply(responseTo: number, doc: BSON.Document): Buffer {
  const body = Buffer.concat([Buffer.alloc(20), BSON.serialize(doc)]);
  body.writeInt32LE(1, 16);
  return Buffer.concat([header(16 + body.length, 1, responseTo, OP_REPLY), body]);
}

function opMsg(responseTo: number, doc: BSON.Document): Buffer {
  const body = Buffer.concat([Buffer.alloc(4), Buffer.from([0]), BSON.serialize(doc)]);
  return Buffer.concat([header(16 + body.length, 1, responseTo, OP_MSG), body]);
}

export async function startMongoFake(options: MongoFakeOptions = {}): Promise<MongoFake> {
  const sockets = new Set<Socket>();
  const commands: string[] = [];
  const salt = randomBytes(16);
  const mechanisms = options.mechanisms ?? ['SCRAM-SHA-256'];
  const user = options.user;
  const salted: Record<ScramHash, Buffer> = {
    sha256: user ? pbkdf2Sync(user.password, salt, ITERATIONS, 32, 'sha256') : Buffer.alloc(0),
    // SCRAM-SHA-1 in MongoDB salts the hex MD5 of "user:mongo:password", not the password.
    sha1: user
      ? pbkdf2Sync(
          createHash('md5').update(`${user.name}:mongo:${user.password}`).digest('hex'),
          salt,
          ITERATIONS,
          20,
          'sha1',
        )
      : Buffer.alloc(0),
  };
  let connectionId = 0;

  const answer = (command: BSON.Document, state: { conversation?: ScramConversation; id: number }): BSON.Document => {
    const name = Object.keys(command)[0] ?? '';
    commands.push(name);
    switch (name.toLowerCase()) {
      case 'hello':
      case 'ismaster': {
        if (options.beforeHello && name === 'hello') return notFound(name);
        const reply: BSON.Document = {
          helloOk: true,
          ismaster: true,
          isWritablePrimary: true,
          maxBsonObjectSize: 16777216,
          maxMessageSizeBytes: 48000000,
          maxWriteBatchSize: 100000,
        };
        Object.assign(reply, {
          localTime: new Date(),
          logicalSessionTimeoutMinutes: 30,
          connectionId: state.id,
          minWireVersion: 0,
          maxWireVersion: 21,
          readOnly: false,
          ok: 1,
        });
        if (command.saslSupportedMechs) reply.saslSupportedMechs = mechanisms;
        return reply;
      }
      case 'saslstart': {
        const hash: ScramHash = command.mechanism === 'SCRAM-SHA-1' ? 'sha1' : 'sha256';
        if (!mechanisms.includes(command.mechanism)) return failed();
        state.conversation = scramConversation(hash, salted[hash], salt, ITERATIONS);
        const serverFirst = state.conversation.first(payloadText(command));
        return { conversationId: 1, done: false, payload: new BSON.Binary(Buffer.from(serverFirst)), ok: 1 };
      }
      case 'saslcontinue': {
        const conversation = state.conversation;
        const clientFinal = payloadText(command);
        if (!conversation || !user) return failed();
        if (clientFinal === '')
          return { conversationId: 1, done: true, payload: new BSON.Binary(Buffer.alloc(0)), ok: 1 };
        const serverFinal = options.impostor ? conversation.forged(clientFinal) : conversation.final(clientFinal);
        if (serverFinal === undefined) return failed();
        return { conversationId: 1, done: true, payload: new BSON.Binary(Buffer.from(serverFinal)), ok: 1 };
      }
      case 'ping':
        return options.padding ? { padding: 'x'.repeat(options.padding), ok: 1 } : { ok: 1 };
      case 'endsessions':
        return { ok: 1 };
      case 'buildinfo':
        return { version: '7.0.0-fake', ok: 1 };
      case 'count':
        return { n: options.count ?? 0, ok: 1 };
      case 'echo':
        return { echo: command.echo, ok: 1 };
      default:
        return notFound(name);
    }
  };

  const server = createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => {});
    const state: { conversation?: ScramConversation; id: number } = { id: ++connectionId };
    let buffer = Buffer.alloc(0);
    socket.on('data', (chunk) => {
      buffer = Buffer.concat([buffer, chunk]);
      while (buffer.length >= 16 && buffer.length >= buffer.readInt32LE(0)) {
        const length = buffer.readInt32LE(0);
        const requestId = buffer.readInt32LE(4);
        const opCode = buffer.readInt32LE(12);
        const message = buffer.subarray(16, length);
        buffer = buffer.subarray(length);
        if (opCode === OP_QUERY) {
          const collectionEnd = message.indexOf(0, 4);
          const doc = BSON.deserialize(message.subarray(collectionEnd + 9), { promoteBuffers: false });
          socket.write(opReply(requestId, answer(doc, state)));
        } else if (opCode === OP_MSG) {
          // flagBits, then a kind-0 section holding the command.
          if (message[4] !== 0) throw new Error('the fake reads kind-0 sections only');
          const doc = BSON.deserialize(message.subarray(5));
          socket.write(opMsg(requestId, answer(doc, state)));
        }
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as { port: number }).port,
    commands,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

function failed(): BSON.Document {
  return { ok: 0, errmsg: 'Authentication failed.', code: 18, codeName: 'AuthenticationFailed' };
}

function notFound(name: string): BSON.Document {
  return { ok: 0, errmsg: `no such command: '${name}'`, code: 59, codeName: 'CommandNotFound' };
}
