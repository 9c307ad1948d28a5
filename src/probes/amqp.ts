// AMQP 0-9-1 (RabbitMQ, LavinMQ): the connection handshake with PLAIN login to a virtual host, and optionally a passive
// declaration of a queue: it must exist, with at least minConsumers consumers; degraded above maxMessages waiting.
import type { Socket } from 'node:net';
import type { TLSSocket } from 'node:tls';
import { z } from 'zod';
import { describeNetworkError } from '../net/network-error.js';
import { openTcp, openTls } from '../net/socket-exchange.js';
import { ANSWER_LIMITS, cut } from './answer.js';
import {
  ArgReader,
  longString,
  type MethodFrame,
  methodFrame,
  PROTOCOL_HEADER,
  readFrame,
  shortString,
} from './codecs/amqp-frames.js';
import { exchangeOver, stopwatch } from './exchange.js';
import { port } from './fields.js';
import { defineProbe, type ProbeContext, type ProbeResult } from './probe.js';
import { loginFields, serviceName, tlsFields } from './service-fields.js';
import { readCapError } from './session.js';

const COUNT_MESSAGE = 'expected a whole number, 0 or more';
const count = () =>
  z
    .number({ error: COUNT_MESSAGE })
    .int({ error: COUNT_MESSAGE })
    .min(0, { error: COUNT_MESSAGE })
    .max(1_000_000_000, { error: COUNT_MESSAGE });

export const amqpConfig = z
  .object({
    ...loginFields('AMQP', port().optional().describe('5672, or 5671 with tls, unless given.'), { fallback: 'guest' }),
    vhost: z
      .string()
      .max(255, { error: 'expected at most 255 characters' })
      .default('/')
      .describe('The virtual host to open.'),
    ...tlsFields(),
    queue: serviceName('queue name', 255)
      .optional()
      .describe('A queue that must exist (declared passively: never created).'),
    maxMessages: count()
      .optional()
      .describe('Show the monitor as degraded when more messages than this wait in the queue.'),
    minConsumers: count().optional().describe('The monitor is down when the queue has fewer consumers than this.'),
  })
  .strict()
  .refine((c) => c.queue !== undefined || (c.maxMessages === undefined && c.minConsumers === undefined), {
    path: ['queue'],
    error: 'maxMessages and minConsumers need a queue',
  });

export type AmqpConfig = z.output<typeof amqpConfig>;

export const amqp = defineProbe({
  id: 'amqp',
  label: 'AMQP (RabbitMQ)',
  config: amqpConfig,
  // Another virtual host is another tenant of the server: the password must be given again for it.
  targets: ['host', 'port', 'vhost'],
  probe: async (config, ctx) => {
    const elapsed = stopwatch();
    const outcome = await handshake(config, ctx);
    if ('error' in outcome) return { ok: false, error: outcome.error };
    return verdict(config, outcome, elapsed());
  },
});

interface Opened {
  server: Record<string, string>;
  queue?: { messages: number; consumers: number };
}
type Outcome = Opened | { error: string };

const CLASS_CONNECTION = 10;
const CLASS_CHANNEL = 20;
const CLASS_QUEUE = 50;
/** Largest frame accepted; also what Tune-Ok asks for. */
const FRAME_MAX = 128 * 1024;

function handshake(config: AmqpConfig, ctx: ProbeContext): Promise<Outcome> {
  const port = config.port ?? (config.tls ? 5671 : 5672);
  const open = (): Socket | TLSSocket =>
    config.tls
      ? openTls(ctx, config.host, port, { rejectUnauthorized: !config.ignoreTls })
      : openTcp(ctx, config.host, port);
  return exchangeOver(open, ctx, (socket, { finish }) => {
    let buffer = Buffer.alloc(0);
    let received = 0;
    let loggingIn = false;
    let server: Record<string, string> = {};
    const on = (frame: MethodFrame) => {
      const args = new ArgReader(frame.args);
      const method = `${frame.classId}.${frame.methodId}`;
      if (method === '10.10') {
        args.u8();
        args.u8();
        server = args.table();
        if (!args.longString().toString('utf8').split(' ').includes('PLAIN'))
          return finish({ error: 'the server does not offer PLAIN login' });
        loggingIn = true;
        const response = Buffer.from(`\0${config.username}\0${config.password ?? ''}`, 'utf8');
        socket.write(
          methodFrame(
            0,
            CLASS_CONNECTION,
            11,
            clientProperties(),
            shortString('PLAIN'),
            longString(response),
            shortString('en_US'),
          ),
        );
      } else if (method === '10.30') {
        args.u16();
        const frameMax = args.u32();
        // One channel is all a check opens.
        const tune = Buffer.alloc(8);
        tune.writeUInt16BE(1, 0);
        tune.writeUInt32BE(frameMax === 0 ? FRAME_MAX : Math.min(frameMax, FRAME_MAX), 2);
        // Heartbeat 0: none; the check is over long before one would be due.
        socket.write(
          Buffer.concat([
            methodFrame(0, CLASS_CONNECTION, 31, tune),
            methodFrame(0, CLASS_CONNECTION, 40, shortString(config.vhost), shortString(''), Buffer.from([0])),
          ]),
        );
      } else if (method === '10.41') {
        loggingIn = false;
        if (config.queue === undefined) return finish({ server });
        socket.write(methodFrame(1, CLASS_CHANNEL, 10, shortString('')));
      } else if (method === '20.11') {
        // Queue.Declare, passive: reserved short, the name, flags (passive only), no arguments.
        socket.write(
          methodFrame(
            1,
            CLASS_QUEUE,
            10,
            Buffer.alloc(2),
            shortString(config.queue as string),
            Buffer.from([0x01]),
            Buffer.alloc(4),
          ),
        );
      } else if (method === '50.11') {
        args.shortString();
        finish({ server, queue: { messages: args.u32(), consumers: args.u32() } });
      } else if (method === '10.50' || method === '20.40') {
        const code = args.u16();
        finish({ error: closeReason(config, frame.classId, code, args.shortString()) });
      }
    };
    socket.once(config.tls ? 'secureConnect' : 'connect', () => socket.write(PROTOCOL_HEADER));
    socket.on('data', (chunk: Buffer) => {
      received += chunk.length;
      if (received > ANSWER_LIMITS.readBytes) return finish({ error: readCapError() });
      buffer = Buffer.concat([buffer, chunk]);
      try {
        let offset = 0;
        for (let read = readFrame(buffer, offset, FRAME_MAX); read; read = readFrame(buffer, offset, FRAME_MAX)) {
          offset = read.end;
          if (read.frame !== 'other') on(read.frame);
        }
        buffer = buffer.subarray(offset);
      } catch (error) {
        finish({ error: `not an AMQP 0-9-1 server: ${error instanceof Error ? error.message : String(error)}` });
      }
    });
    socket.once('error', (error) => finish({ error: describeNetworkError(error, ctx.timeoutMs) }));
    socket.once('close', () =>
      finish({
        error: loggingIn
          ? 'connection closed by the server during login (wrong user name or password?)'
          : 'connection closed by the server',
      }),
    );
  });
}

/** Who is asking, and that a refused login should be told with Connection.Close rather than a dropped socket. */
function clientProperties(): Buffer {
  const capabilities = longString(
    Buffer.concat([shortString('authentication_failure_close'), Buffer.from('t'), Buffer.from([1])]),
  );
  const body = Buffer.concat([
    shortString('product'),
    Buffer.from('S'),
    longString(Buffer.from('Warden')),
    shortString('capabilities'),
    Buffer.from('F'),
    capabilities,
  ]);
  return longString(body);
}

function closeReason(config: AmqpConfig, classId: number, code: number, text: string): string {
  const said = cut(text, 200);
  if (code === 403 && classId === CLASS_CONNECTION) return `authentication failed: ${said}`;
  if (code === 404 && classId === CLASS_CHANNEL) return `queue ${cut(config.queue ?? '', 100)} not found: ${said}`;
  return `the server closed the ${classId === CLASS_CHANNEL ? 'channel' : 'connection'}: ${code} ${said}`;
}

function verdict(config: AmqpConfig, opened: Opened, latencyMs: number): ProbeResult {
  const data: Record<string, unknown> = {};
  if (opened.server.product) data.product = cut(opened.server.product, 60);
  if (opened.server.version) data.serverVersion = cut(opened.server.version, 40);
  const server = [data.product, data.serverVersion].filter(Boolean).join(' ');
  if (!opened.queue)
    return {
      ok: true,
      latencyMs,
      message: `logged in as ${config.username} to ${config.vhost}${server ? `, ${server}` : ''}`,
      data,
    };
  const { messages, consumers } = opened.queue;
  Object.assign(data, { messages, consumers });
  const summary = `${config.queue}: ${messages} message${messages === 1 ? '' : 's'}, ${consumers} consumer${consumers === 1 ? '' : 's'}`;
  if (config.minConsumers !== undefined && consumers < config.minConsumers)
    return { ok: false, error: `${summary}, fewer than ${config.minConsumers}`, data };
  if (config.maxMessages !== undefined && messages > config.maxMessages)
    return {
      ok: true,
      degraded: true,
      latencyMs,
      message: `${summary}, more than ${config.maxMessages} waiting`,
      data,
    };
  return { ok: true, latencyMs, message: summary, data };
}
