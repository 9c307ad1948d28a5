// MongoDB: connect to one server (no discovery of others), log in (SCRAM), run one command ({"ping": 1} unless told)
// and compare its reply, or a value in it. The driver connects through the target guard's checking lookup.
import { isIP } from 'node:net';
import { type Document, EJSON } from 'bson';
import { z } from 'zod';
import { bareHost } from '../net/hosts.js';
import { describeNetworkError, timedOutAfter } from '../net/network-error.js';
import { untilAborted } from '../net/socket-exchange.js';
import { dialFor } from '../net/target-guard.js';
import { answerText, expectedField, judgeAnswer } from './answer.js';
import { isValidJsonPath, jsonValueText, readJsonPath } from './codecs/json-path.js';
import { stopwatch } from './exchange.js';
import { checkedText, port } from './fields.js';
import { defineProbe, type ProbeContext, type ProbeResult, withLibrary } from './probe.js';
import { loginFields, tlsFields, usernameNeedsPassword } from './service-fields.js';

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
  probe: withLibrary(
    async () => (await import('mongodb')).MongoClient,
    (MongoClient) => async (config, ctx) => {
      const dial = dialFor(ctx.guard, config.host);
      if ('refused' in dial) return { ok: false, error: dial.refused.message };
      const elapsed = stopwatch();
      const client = new MongoClient(`mongodb://${hostPort(config.host, config.port)}/`, {
        // This one server, never the members it names: they would be reached without the guard's look at their names.
        directConnection: true,
        ...(config.username === undefined
          ? {}
          : { auth: { username: config.username, password: config.password }, authSource: config.authSource }),
        tls: config.tls,
        tlsAllowInvalidCertificates: config.ignoreTls,
        tlsAllowInvalidHostnames: config.ignoreTls,
        ...(dial.lookup ? { lookup: dial.lookup } : {}),
        serverSelectionTimeoutMS: ctx.timeoutMs,
        connectTimeoutMS: ctx.timeoutMs,
        socketTimeoutMS: ctx.timeoutMs,
        maxPoolSize: 1,
        heartbeatFrequencyMS: 3_600_000,
        retryReads: false,
        retryWrites: false,
        appName: 'warden',
      });
      client.on('error', () => {});
      try {
        // A server that cannot be reached fails the first heartbeat: said at once, not after the driver's retries.
        const unreachable = new Promise<never>((_, reject) =>
          client.once('serverHeartbeatFailed', (event) => reject(event.failure)),
        );
        unreachable.catch(() => {});
        const outcome = await untilAborted<{ reply: Document } | { error: string }>(
          async () => ({
            reply: await Promise.race([
              client.db(config.database).command(parseCommand(config.command) as Document),
              unreachable,
            ]),
          }),
          ctx.signal,
          () => ({ error: timedOutAfter(ctx.timeoutMs) }),
        ).catch((error: unknown) => ({ error: describeMongoError(error, ctx) }));
        if ('error' in outcome) return { ok: false, error: outcome.error };
        return verdict(config, outcome.reply, elapsed());
      } finally {
        client.close(true).catch(() => {});
      }
    },
  ),
});

function hostPort(host: string, port: number): string {
  const bare = bareHost(host);
  return isIP(bare) === 6 ? `[${bare}]:${port}` : `${bare}:${port}`;
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

/** The server's words (Authentication failed., CommandNotFound) or the driver's, which name no secret. */
function describeMongoError(error: unknown, ctx: ProbeContext): string {
  if (ctx.signal.aborted) return timedOutAfter(ctx.timeoutMs);
  const { name, message, codeName, code, cause } = error as {
    name?: string;
    message?: string;
    codeName?: string;
    code?: number;
    cause?: unknown;
  };
  // A network failure carries the socket's error (ECONNREFUSED, the guard's refusal) as its cause.
  if (name === 'MongoNetworkError' || name === 'MongoNetworkTimeoutError')
    return describeNetworkError(cause ?? error, ctx.timeoutMs);
  if (name === 'MongoServerSelectionError') return `no server answered: ${message}`;
  if (codeName === 'AuthenticationFailed' || code === 18) return `authentication failed: ${message}`;
  return codeName ? `${message} (${codeName})` : (message ?? String(error));
}
