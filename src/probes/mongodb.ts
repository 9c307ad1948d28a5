// MongoDB: connect to one server (no discovery of others), log in (SCRAM), run one command ({"ping": 1} unless told)
// and compare its reply, or a value in it. Spoken here over the wire protocol (OP_MSG, BSON from the bson package)
// rather than through the driver, which opens a second, monitoring connection and builds a topology for every check:
// 16 times a TCP check's CPU, against about 2.5 times this way.
import { createHash } from 'node:crypto';
import type { Socket } from 'node:net';
import { platform } from 'node:os';
import type { TLSSocket } from 'node:tls';
import saslprep from '@mongodb-js/saslprep';
import { Binary, type Document, EJSON } from 'bson';
import { z } from 'zod';
import { describeNetworkError } from '../net/network-error.js';
import { openTcp, openTls } from '../net/socket-exchange.js';
import { ANSWER_LIMITS, answerText, expectedField, judgeAnswer } from './answer.js';
import { isValidJsonPath, jsonValueText, readJsonPath } from './codecs/json-path.js';
import { opMsg, readMessage, replyDocument, WireError } from './codecs/mongo-wire.js';
import { scramFinal, scramStart } from './codecs/scram.js';
import { exchangeOver, type Failure, stopwatch } from './exchange.js';
import { checkedText, port } from './fields.js';
import { defineProbe, type ProbeContext, type ProbeResult } from './probe.js';
import { loginFields, tlsFields, usernameNeedsPassword } from './service-fields.js';
import { readCapError } from './session.js';

const COMMAND_MESSAGE = 'expected a command as a JSON object, e.g. {"ping": 1}';

function parseCommand(text: string): Record<string, unknown> | undefined {
  try {
    const parsed = EJSON.parse(text, { relaxed: true }) as unknown;
    return parsed && typeof parsed === 'object' && !Array.isArray(parsed) && Object.keys(parsed).length > 0
      ? (parsed as Record<string, unknown>)
      : undefined;
  } catch {
    return undefined;
  }
}

export const mongodbConfig = z
  .object({
    ...loginFields('MongoDB', port().default(27017)),
    authSource: z.string().min(1).max(64).default('admin').describe('The database that holds the user.'),
    database: z.string().min(1).max(64).default('admin').describe('The database the command runs in.'),
    ...tlsFields(),
    command: checkedText(COMMAND_MESSAGE, 2048, (text) => parseCommand(text) !== undefined)
      .default('{"ping": 1}')
      .describe(
        'The command to run, as (extended) JSON: {"ping": 1}, {"dbStats": 1}, {"count": "jobs", "query": {"state": "failed"}}.',
      ),
    jsonPath: z
      .string()
      .max(256)
      .refine(isValidJsonPath, { error: 'expected a path such as n or members[0].stateStr' })
      .optional()
      .describe('A value in the reply to compare, e.g. n; the whole reply when not given.'),
    expected: expectedField('the reply (or the value at jsonPath)'),
  })
  .strict()
  .refine(...usernameNeedsPassword());

export const mongodb = defineProbe({
  id: 'mongodb',
  label: 'MongoDB',
  config: mongodbConfig,
  probe: async (config, ctx) => {
    const elapsed = stopwatch();
    const outcome = await session(config, ctx);
    if ('error' in outcome) return { ok: false, error: outcome.error };
    return verdict(config, outcome.reply, elapsed());
  },
});

type MongodbConfig = z.output<typeof mongodbConfig>;
/** A reply whose ok is not 1: the server's words, its code and the code's name. */
type ServerError = Error & { code?: number | string; codeName?: string };

const COMMAND_NOT_FOUND = 59;
const AUTHENTICATION_FAILED = 18;

/**
 * One connection to the one server named (never the members it lists: they would be reached without the guard's look
 * at their names): hello, a SCRAM login when a user is given, the command and its reply. Each step waits for its
 * answer; the exchange ends at the deadline, at the first failure or with the reply, and reads at most
 * ANSWER_LIMITS.readBytes.
 */
function session(config: MongodbConfig, ctx: ProbeContext): Promise<{ reply: Document } | Failure> {
  const open = (): Socket | TLSSocket =>
    config.tls
      ? openTls(ctx, config.host, config.port, {
          rejectUnauthorized: !config.ignoreTls,
          ...(config.ignoreTls ? { checkServerIdentity: () => undefined } : {}),
        })
      : openTcp(ctx, config.host, config.port);
  return exchangeOver<Socket | TLSSocket, { reply: Document }>(open, ctx, (socket, { finish }) => {
    let buffer: Buffer = Buffer.alloc(0);
    let received = 0;
    let nextId = 0;
    const waiting = new Map<number, (reply: Document) => void>();
    /** The reply, when it says ok; a ServerError in the server's words when not. */
    const run: Run = async (command) => {
      const reply = await new Promise<Document>((resolve) => {
        const id = ++nextId;
        waiting.set(id, resolve);
        socket.write(opMsg(id, command));
      });
      if (reply.ok === 1) return reply;
      throw Object.assign(new Error(String(reply.errmsg ?? 'the command failed')), {
        code: typeof reply.code === 'number' ? reply.code : undefined,
        codeName: typeof reply.codeName === 'string' ? reply.codeName : undefined,
      });
    };
    const talk = async () => {
      const hello = await greet(run, config);
      if (config.username !== undefined) await logIn(run, config, hello);
      finish({ reply: await run({ ...(parseCommand(config.command) as Document), $db: config.database }) });
    };
    socket.once(config.tls ? 'secureConnect' : 'connect', () =>
      talk().catch((error: unknown) => finish({ error: describeMongoError(error, ctx) })),
    );
    socket.on('data', (chunk: Buffer) => {
      received += chunk.length;
      if (received > ANSWER_LIMITS.readBytes) return finish({ error: readCapError() });
      buffer = buffer.length === 0 ? chunk : Buffer.concat([buffer, chunk]);
      try {
        for (let read = readMessage(buffer, MAX_MESSAGE); read; read = readMessage(buffer, MAX_MESSAGE)) {
          buffer = buffer.subarray(read.end);
          const answered = waiting.get(read.message.responseTo);
          if (!answered) throw new WireError(`a reply to no request (${read.message.responseTo})`);
          waiting.delete(read.message.responseTo);
          answered(replyDocument(read.message.payload));
        }
      } catch (error) {
        if (error instanceof WireError && error.tooLong) return finish({ error: readCapError() });
        finish({ error: `not a MongoDB server (3.6 or later): ${error instanceof Error ? error.message : error}` });
      }
    });
    socket.once('error', (error) => finish({ error: describeMongoError(error, ctx) }));
    socket.once('close', () => finish({ error: 'connection closed by the server' }));
  });
}

/** No reply may be longer than what a check reads in all. */
const MAX_MESSAGE = ANSWER_LIMITS.readBytes;

type Run = (command: Document) => Promise<Document>;

/** hello, or isMaster on a server too old to know it (before 4.4.2, 4.2.10, 4.0.21 and 3.6.21). */
async function greet(run: Run, config: MongodbConfig): Promise<Document> {
  const handshake = {
    client: { application: { name: 'warden' }, driver: { name: 'warden', version: '1' }, os: { type: platform() } },
    // Which mechanisms this user may log in with: the server lists them in its answer.
    ...(config.username === undefined ? {} : { saslSupportedMechs: `${config.authSource}.${config.username}` }),
    $db: 'admin',
  };
  try {
    return await run({ hello: 1, ...handshake });
  } catch (error) {
    if ((error as ServerError).code !== COMMAND_NOT_FOUND) throw error;
    return run({ isMaster: 1, ...handshake });
  }
}

/**
 * SCRAM-SHA-256 when the server offers it for this user, else SCRAM-SHA-1 (over MongoDB's digest of the password). A
 * server whose signature does not prove it knows the password fails the check as a refused login does.
 */
async function logIn(run: Run, config: MongodbConfig, hello: Document): Promise<void> {
  const offered: unknown[] = Array.isArray(hello.saslSupportedMechs) ? hello.saslSupportedMechs : [];
  const sha256 = offered.includes('SCRAM-SHA-256');
  const username = config.username as string;
  const given = config.password ?? '';
  const password = sha256 ? saslprep(given) : createHash('md5').update(`${username}:mongo:${given}`).digest('hex');
  const start = scramStart(sha256 ? 'sha256' : 'sha1', username);
  const $db = config.authSource;
  const first = await run({
    saslStart: 1,
    mechanism: sha256 ? 'SCRAM-SHA-256' : 'SCRAM-SHA-1',
    payload: new Binary(Buffer.from(start.clientFirst)),
    autoAuthorize: 1,
    options: { skipEmptyExchange: true },
    $db,
  });
  const final = await scramFinal(start.state, password, saslText(first.payload));
  const second = await run({
    saslContinue: 1,
    conversationId: first.conversationId,
    payload: new Binary(Buffer.from(final.clientFinal)),
    $db,
  });
  if (!final.verifies(saslText(second.payload)))
    throw Object.assign(new Error("the server's signature does not prove it knows the password"), {
      code: AUTHENTICATION_FAILED,
    });
  // A server that does not skip the empty exchange wants one more, empty, step before it is done.
  if (second.done !== true)
    await run({ saslContinue: 1, conversationId: first.conversationId, payload: new Binary(Buffer.alloc(0)), $db });
}

function saslText(payload: unknown): string {
  return payload instanceof Binary ? Buffer.from(payload.buffer).toString('utf8') : '';
}

function verdict(config: z.output<typeof mongodbConfig>, reply: Document, latencyMs: number): ProbeResult {
  // The cluster's bookkeeping changes every second: never part of the answer.
  const plain = Object.fromEntries(
    Object.entries(EJSON.serialize(reply, { relaxed: true })).filter(
      ([key]) => !key.startsWith('$') && key !== 'operationTime',
    ),
  );
  const asked = Object.keys(parseCommand(config.command) ?? {})[0] ?? 'command';
  if (config.jsonPath === undefined)
    return judgeAnswer(config.expected, { latencyMs, asked, answer: answerText(plain) });
  const found = readJsonPath(plain, config.jsonPath);
  const answer = found.found ? answerText(jsonValueText(found.value)) : '';
  return judgeAnswer(config.expected, { latencyMs, asked: `${asked} ${config.jsonPath}`, answer });
}

/** The server's words (Authentication failed., CommandNotFound) or the socket's; neither names a secret. */
function describeMongoError(error: unknown, ctx: ProbeContext): string {
  const { code, codeName, message } = error as ServerError;
  if (code === 'DEPTH_ZERO_SELF_SIGNED_CERT') return 'the TLS certificate is self-signed (set ignoreTls to accept it)';
  if (code === 'ERR_SSL_WRONG_VERSION_NUMBER') return 'the server did not answer in TLS (leave tls off)';
  if (typeof code !== 'number' && codeName === undefined) return describeNetworkError(error, ctx.timeoutMs);
  if (code === AUTHENTICATION_FAILED || codeName === 'AuthenticationFailed') return `authentication failed: ${message}`;
  return codeName ? `${message} (${codeName})` : message;
}
