// Redis (and Valkey, KeyDB): connect (TLS if asked), AUTH when a password is set, run one command (PING unless told
// otherwise) and compare its reply. RESP2 spoken here over a socket of the target guard; what is read is capped.
import type { Socket } from 'node:net';
import type { TLSSocket } from 'node:tls';
import { z } from 'zod';
import { describeNetworkError } from '../net/network-error.js';
import { openTcp, openTls } from '../net/socket-exchange.js';
import { ANSWER_LIMITS, answerText, expectedField, judgeAnswer } from './answer.js';
import { encodeCommand, RespError, type RespValue, readResp, splitCommand } from './codecs/resp.js';
import { exchangeOver, stopwatch } from './exchange.js';
import { port } from './fields.js';
import { defineProbe, type ProbeContext } from './probe.js';
import { loginFields, statement, tlsFields, usernameNeedsPassword } from './service-fields.js';
import { readCapError } from './session.js';

export const redisConfig = z
  .object({
    ...loginFields('Redis', port().default(6379), { userWhat: 'Redis (ACL; Redis 6 and later)' }),
    ...tlsFields(),
    command: statement('command', 512)
      .refine((text) => splitCommand(text) !== null, {
        error: 'expected a command and its arguments, "double-quoted" where they hold spaces',
      })
      .optional()
      .describe('The command to run, e.g. GET health:status; PING unless given.'),
    expected: expectedField("the command's reply"),
  })
  .strict()
  .refine(...usernameNeedsPassword());

export const redis = defineProbe({
  id: 'redis',
  label: 'Redis',
  config: redisConfig,
  probe: async (config, ctx) => {
    const elapsed = stopwatch();
    const command = splitCommand(config.command ?? 'PING') as string[];
    const replies = await exchange(config, command, ctx);
    if ('error' in replies) return { ok: false, error: replies.error };
    const latencyMs = elapsed();
    const [auth, reply] = config.password === undefined ? [undefined, replies.values[0]] : replies.values;
    if (auth instanceof RespError) return { ok: false, error: `authentication failed: ${auth.message}` };
    if (auth !== undefined && auth !== 'OK')
      return { ok: false, error: `not a Redis server: AUTH answered ${replyText(auth)}` };
    if (reply instanceof RespError)
      return { ok: false, error: `${command[0]?.toUpperCase()} failed: ${reply.message}` };
    return judgeAnswer(config.expected, { latencyMs, asked: config.command ?? 'PING', answer: replyText(reply) });
  },
});

type Replies = { values: RespValue[] } | { error: string };

/** Sends AUTH (with a password) and the command in one write, and reads as many replies. */
function exchange(config: z.output<typeof redisConfig>, command: string[], ctx: ProbeContext): Promise<Replies> {
  const requests: string[][] = [];
  if (config.password !== undefined)
    requests.push(
      config.username === undefined ? ['AUTH', config.password] : ['AUTH', config.username, config.password],
    );
  requests.push(command);
  const open = (): Socket | TLSSocket =>
    config.tls
      ? openTls(ctx, config.host, config.port, { rejectUnauthorized: !config.ignoreTls })
      : openTcp(ctx, config.host, config.port);
  return exchangeOver(open, ctx, (socket, { finish }) => {
    let buffer = Buffer.alloc(0);
    socket.once(config.tls ? 'secureConnect' : 'connect', () =>
      socket.write(Buffer.concat(requests.map(encodeCommand))),
    );
    socket.on('data', (chunk: Buffer) => {
      buffer = Buffer.concat([buffer, chunk]);
      if (buffer.length > ANSWER_LIMITS.readBytes) return finish({ error: readCapError() });
      try {
        const values: RespValue[] = [];
        let offset = 0;
        while (values.length < requests.length) {
          const read = readResp(buffer, offset);
          if (read === undefined) return;
          values.push(read.value);
          offset = read.end;
        }
        finish({ values });
      } catch (error) {
        finish({ error: `not a Redis server: ${error instanceof Error ? error.message : String(error)}` });
      }
    });
    socket.once('error', (error) => finish({ error: describeNetworkError(error, ctx.timeoutMs) }));
    socket.once('close', () => finish({ error: 'connection closed by the server' }));
  });
}

/** A reply as text: a string as it is, a number, null, or an array as JSON. */
function replyText(reply: RespValue | undefined): string {
  if (Array.isArray(reply))
    return answerText(reply.map((item) => (item instanceof RespError ? `(error) ${item.message}` : item)));
  return answerText(reply);
}
