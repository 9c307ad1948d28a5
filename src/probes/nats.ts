// NATS: read the server's INFO, CONNECT (user and password, or a token), PING and wait for PONG; optionally send a
// request on a subject and compare the reply. The text protocol is spoken here over a socket of the target guard.
import type { Socket } from 'node:net';
import { StringDecoder } from 'node:string_decoder';
import type { TLSSocket } from 'node:tls';
import { z } from 'zod';
import { describeNetworkError, timedOutAfter } from '../net/network-error.js';
import { openTcp, startTls, withSocket } from '../net/socket-exchange.js';
import { ANSWER_LIMITS, answerText, cut, expectedField, judgeAnswer } from './answer.js';
import { stopwatch } from './exchange.js';
import { port, secret } from './fields.js';
import { defineProbe, type ProbeContext } from './probe.js';
import { expectedNeeds, loginFields, statement, tlsFields } from './service-fields.js';
import { readCapError } from './session.js';

const SUBJECT = /^[^\s*>]+$/;

export const natsConfig = z
  .object({
    ...loginFields('NATS', port().default(4222)),
    ...tlsFields(),
    token: secret('NATS token')
      .optional()
      .describe('An authentication token, instead of a user and password; stored as a secret.'),
    subject: z
      .string()
      .max(256, { error: 'expected at most 256 characters' })
      .regex(SUBJECT, { error: 'expected a subject without blanks or wildcards, e.g. health.check' })
      .optional()
      .describe(
        'A subject to send a request on; the first reply is the answer. Without one the check connects and pings.',
      ),
    payload: statement('payload', 1024).optional().describe('The body of the request.'),
    expected: expectedField('the reply'),
  })
  .strict()
  .refine(...expectedNeeds('subject'))
  .refine((c) => (c.username === undefined) === (c.password === undefined), {
    path: ['password'],
    error: 'a username and a password go together',
  })
  .refine((c) => c.token === undefined || c.username === undefined, {
    path: ['token'],
    error: 'a token or a username and password, not both',
  });

export type NatsConfig = z.output<typeof natsConfig>;

export const nats = defineProbe({
  id: 'nats',
  label: 'NATS',
  config: natsConfig,
  secrets: ['password', 'token'],
  probe: async (config, ctx) => {
    const elapsed = stopwatch();
    const outcome = await exchange(config, ctx);
    if ('error' in outcome) return { ok: false, error: outcome.error };
    const latencyMs = elapsed();
    const data: Record<string, unknown> = {};
    if (typeof outcome.info.version === 'string') data.serverVersion = cut(outcome.info.version, 40);
    if (typeof outcome.info.server_name === 'string') data.serverName = cut(outcome.info.server_name, 100);
    if (outcome.reply === undefined)
      return {
        ok: true,
        latencyMs,
        message: `connected${data.serverVersion ? `, NATS ${data.serverVersion}` : ''}`,
        data,
      };
    return judgeAnswer(config.expected, {
      latencyMs,
      asked: config.subject as string,
      answer: answerText(outcome.reply),
      data,
    });
  },
});

type Outcome = { info: Record<string, unknown>; reply?: string } | { error: string };

function exchange(config: NatsConfig, ctx: ProbeContext): Promise<Outcome> {
  let secure: TLSSocket | undefined;
  const release = () => {
    secure?.removeAllListeners();
    secure?.on('error', () => {});
    secure?.destroy();
  };
  const timedOut = (): Outcome => {
    release();
    return { error: timedOutAfter(ctx.timeoutMs) };
  };
  return withSocket<Socket, Outcome>(
    () => openTcp(ctx, config.host, config.port),
    ctx,
    timedOut,
    (socket, { finish }) => {
      let buffer = '';
      let received = 0;
      let info: Record<string, unknown> | undefined;
      const decoder = new StringDecoder('utf8');
      const send = (text: string) => (secure ?? socket).write(text);
      const inbox = `_INBOX.warden.${Math.random().toString(36).slice(2)}`;
      const stop = (outcome: Outcome) => {
        release();
        finish(outcome);
      };
      const onData = (data: Buffer) => {
        const chunk = decoder.write(data);
        received += data.length;
        if (received > ANSWER_LIMITS.readBytes) return stop({ error: readCapError() });
        buffer += chunk;
        for (;;) {
          const end = buffer.indexOf('\r\n');
          if (end === -1) return;
          const line = buffer.slice(0, end);
          if (!info) {
            const parsed = parseInfo(line);
            if ('error' in parsed) return stop(parsed);
            info = parsed.info;
            buffer = buffer.slice(end + 2);
            if (info.tls_required === true && !config.tls) return stop({ error: 'the server requires TLS: set tls' });
            if (config.tls && info.tls_required !== true && info.tls_available !== true)
              return stop({ error: 'the server does not offer TLS' });
            if (!config.tls) {
              send(greeting(config, inbox));
              continue;
            }
            // TLS begins after the INFO, over the same connection: what follows is read from the TLS socket.
            socket.removeListener('data', onData);
            secure = startTls(socket, { rejectUnauthorized: !config.ignoreTls }, config.host);
            secure.on('data', onData);
            secure.once('secureConnect', () => send(greeting(config, inbox)));
            secure.once('error', (error) => stop({ error: describeNetworkError(error, ctx.timeoutMs) }));
            return;
          }
          if (line.startsWith('MSG ') || line.startsWith('HMSG ')) {
            // [H]MSG <subject> <sid> [reply-to] [<header bytes>] <total bytes>: the payload follows on its own line.
            const fields = line.split(' ');
            const total = Number(fields.at(-1));
            const headerBytes = line.startsWith('HMSG ') ? Number(fields.at(-2)) : 0;
            if (!Number.isInteger(total) || !Number.isInteger(headerBytes) || headerBytes < 0 || headerBytes > total)
              return stop({ error: `not a NATS server: ${cut(line, 80)}` });
            const body = Buffer.from(buffer.slice(end + 2));
            if (body.length < total + 2) return;
            const status = /^NATS\/1\.0 (\d{3})/.exec(body.subarray(0, headerBytes).toString('utf8'))?.[1];
            // The server's own answer when nothing is subscribed to the subject.
            if (status === '503') return stop({ error: `no responders on ${config.subject}` });
            return stop({ info, reply: body.subarray(headerBytes, total).toString('utf8') });
          }
          buffer = buffer.slice(end + 2);
          if (line.startsWith('-ERR')) return stop({ error: describeServerError(line) });
          // The PONG to the PING after CONNECT: logged in. With a subject, the reply is still to come.
          if (line === 'PONG' && config.subject === undefined) return stop({ info });
          if (line === 'PING') send('PONG\r\n');
        }
      };
      socket.on('data', onData);
      socket.once('error', (error) => stop({ error: describeNetworkError(error, ctx.timeoutMs) }));
      socket.once('close', () => stop({ error: 'connection closed by the server' }));
    },
  );
}

function parseInfo(line: string): { info: Record<string, unknown> } | { error: string } {
  if (!line.startsWith('INFO ')) return { error: `not a NATS server: it said ${JSON.stringify(cut(line, 60))}` };
  try {
    const info = JSON.parse(line.slice(5)) as unknown;
    if (info && typeof info === 'object' && !Array.isArray(info)) return { info: info as Record<string, unknown> };
  } catch {
    // Reported below.
  }
  return { error: 'not a NATS server: its INFO is not a JSON object' };
}

/** CONNECT with the credentials, then (with a subject) the reply subscription and the request, then PING. */
function greeting(config: NatsConfig, inbox: string): string {
  const connect: Record<string, unknown> = {
    verbose: false,
    pedantic: false,
    tls_required: false,
    name: 'warden',
    lang: 'node',
    version: '1',
    protocol: 1,
    headers: true,
    no_responders: true,
  };
  if (config.username !== undefined) Object.assign(connect, { user: config.username, pass: config.password });
  if (config.token !== undefined) connect.auth_token = config.token;
  let text = `CONNECT ${JSON.stringify(connect)}\r\n`;
  if (config.subject !== undefined) {
    const payload = Buffer.from(config.payload ?? '', 'utf8');
    text += `SUB ${inbox} 1\r\nUNSUB 1 1\r\nPUB ${config.subject} ${inbox} ${payload.length}\r\n${payload.toString('utf8')}\r\n`;
  }
  return `${text}PING\r\n`;
}

/** -ERR 'Authorization Violation' → the server's words, unquoted. */
function describeServerError(line: string): string {
  const words = line.replace(/^-ERR\s*/, '').replace(/^'(.*)'$/, '$1');
  if (/authorization violation/i.test(words)) return 'authentication failed: Authorization Violation';
  return `the server said: ${cut(words, 200)}`;
}
