// MQTT: connect (TLS if asked), log in, and optionally subscribe to a topic and compare the first message on it (a
// retained one, or the next to come). Spoken here (MQTT 3.1.1: CONNECT, SUBSCRIBE, PUBLISH) over a socket the target
// guard opened: mqtt.js, which it replaced, made a client per check with stores, timers and reconnect logic that one
// exchange of four packets never uses (0.49 ms of CPU a check, 3.5 times a TCP connect).
import { randomBytes } from 'node:crypto';
import type { Socket } from 'node:net';
import type { TLSSocket } from 'node:tls';
import { z } from 'zod';
import { describeNetworkError } from '../net/network-error.js';
import { openTcp, openTls } from '../net/socket-exchange.js';
import { ANSWER_LIMITS, answerText, cut, expectedField, firstBytes, judgeAnswer } from './answer.js';
import { exchangeOver, type Failure, stopwatch } from './exchange.js';
import { port } from './fields.js';
import { defineProbe, type ProbeContext } from './probe.js';
import { expectedNeeds, loginFields, serviceName, tlsFields } from './service-fields.js';
import { readCapError } from './session.js';

export const mqttConfig = z
  .object({
    ...loginFields('MQTT', port().optional().describe('1883, or 8883 with tls, unless given.')),
    ...tlsFields(),
    topic: serviceName('topic', 256, true)
      .refine((topic) => !topic.includes('\0'), { error: 'expected a topic without NUL characters' })
      .optional()
      .describe('A topic to subscribe to; its first message (a retained one, or the next published) is the answer.'),
    expected: expectedField('the first message on the topic'),
  })
  .strict()
  .refine(...expectedNeeds('topic'));

export const mqtt = defineProbe({
  id: 'mqtt',
  label: 'MQTT',
  config: mqttConfig,
  probe: async (config, ctx) => {
    if (config.password !== undefined && config.username === undefined)
      return { ok: false, error: 'a password needs a username (MQTT 3.1.1 sends a password only with a user name)' };
    const elapsed = stopwatch();
    const outcome = await session(config, ctx);
    if ('error' in outcome) return { ok: false, error: outcome.error };
    const latencyMs = elapsed();
    if (outcome.message === undefined)
      return { ok: true, latencyMs, message: `connected${config.username ? ` as ${config.username}` : ''}` };
    return judgeAnswer(config.expected, {
      latencyMs,
      asked: config.topic as string,
      answer: answerText(outcome.message.toString('utf8')),
      data: { retained: outcome.retained },
    });
  },
});

type MqttConfig = z.output<typeof mqttConfig>;
type Outcome = { message?: Buffer; retained?: boolean };

const CONNECT = 1;
const CONNACK = 2;
const PUBLISH = 3;
const SUBACK = 9;
const DISCONNECT = Buffer.from([0xe0, 0x00]);
/** The one SUBSCRIBE's packet identifier. */
const SUBSCRIBE_ID = 1;
/** CONNACK's return codes other than 0 (MQTT 3.1.1, 3.2.2.3), in the words brokers' own clients use. */
const REFUSALS: Record<number, string> = {
  1: 'Unacceptable protocol version',
  2: 'Identifier rejected',
  3: 'Server unavailable',
  4: 'Bad username or password',
  5: 'Not authorized',
};

/**
 * CONNECT (clean session, no keep-alive: one check, then gone) and its CONNACK; with a topic, SUBSCRIBE at QoS 0, its
 * SUBACK, and the first PUBLISH that follows (a retained message comes at once). DISCONNECT at the end, so the broker
 * publishes no will and logs no lost client. Reads at most ANSWER_LIMITS.readBytes.
 */
function session(config: MqttConfig, ctx: ProbeContext): Promise<Outcome | Failure> {
  const port = config.port ?? (config.tls ? 8883 : 1883);
  const open = (): Socket | TLSSocket =>
    config.tls
      ? openTls(ctx, config.host, port, { rejectUnauthorized: !config.ignoreTls })
      : openTcp(ctx, config.host, port);
  return exchangeOver<Socket | TLSSocket, Outcome>(open, ctx, (socket, { finish }) => {
    let buffer: Buffer = Buffer.alloc(0);
    let received = 0;
    let connected = false;
    const done = (outcome: Outcome | Failure) => {
      if (connected) socket.write(DISCONNECT);
      finish(outcome);
    };
    const on = (type: number, flags: number, body: Buffer) => {
      if (!connected) {
        if (type !== CONNACK || body.length < 2) throw new Error(`a packet of type ${type} before CONNACK`);
        const code = body[1] as number;
        if (code !== 0)
          return finish({ error: `the broker refused the connection: ${REFUSALS[code] ?? `return code ${code}`}` });
        connected = true;
        if (config.topic === undefined) return done({});
        return socket.write(subscribe(config.topic));
      }
      if (type === SUBACK && body.length >= 3 && body.readUInt16BE(0) === SUBSCRIBE_ID && (body[2] as number) >= 0x80)
        return done({ error: `the broker refused the subscription to ${cut(config.topic as string, 100)}` });
      if (type === PUBLISH && body.length >= 2) {
        const topicEnd = 2 + body.readUInt16BE(0);
        // QoS 1 and 2 messages carry a packet identifier after the topic (none is asked for; a broker may still).
        const payloadAt = topicEnd + ((flags >> 1) & 0x03 ? 2 : 0);
        if (payloadAt > body.length) throw new Error('a PUBLISH shorter than its topic');
        done({ message: body.subarray(payloadAt), retained: (flags & 0x01) === 1 });
      }
    };
    socket.once(config.tls ? 'secureConnect' : 'connect', () => socket.write(connectPacket(config)));
    socket.on('data', (chunk: Buffer) => {
      received += chunk.length;
      if (received > ANSWER_LIMITS.readBytes) return finish({ error: readCapError() });
      buffer = buffer.length === 0 ? chunk : Buffer.concat([buffer, chunk]);
      try {
        // A broker's first packet is CONNACK: anything else is another protocol, said at once.
        if (!connected && buffer[0] !== CONNACK << 4) throw new Error(`its answer began ${firstBytes(buffer)}`);
        for (let packet = readPacket(buffer); packet; packet = readPacket(buffer)) {
          buffer = buffer.subarray(packet.end);
          on(packet.type, packet.flags, packet.body);
        }
      } catch (error) {
        finish({ error: `not an MQTT broker: ${error instanceof Error ? error.message : error}` });
      }
    });
    socket.once('error', (error) => finish({ error: describeNetworkError(error, ctx.timeoutMs) }));
    socket.once('close', () => finish({ error: 'connection closed by the server' }));
  });
}

/** A length-prefixed UTF-8 string or binary field. */
function field(value: string | Buffer): Buffer {
  const bytes = typeof value === 'string' ? Buffer.from(value, 'utf8') : value;
  const length = Buffer.alloc(2);
  length.writeUInt16BE(bytes.length);
  return Buffer.concat([length, bytes]);
}

/** A packet: its type and flags, the remaining length (1 to 4 bytes of 7 bits), the body. */
function packet(type: number, flags: number, ...parts: Buffer[]): Buffer {
  const body = Buffer.concat(parts);
  const length: number[] = [];
  let left = body.length;
  do {
    const byte = left % 128;
    left = Math.floor(left / 128);
    length.push(left > 0 ? byte | 0x80 : byte);
  } while (left > 0);
  return Buffer.concat([Buffer.from([(type << 4) | flags, ...length]), body]);
}

function connectPacket(config: MqttConfig): Buffer {
  const withPassword = config.username !== undefined && config.password !== undefined;
  const flags = (config.username !== undefined ? 0x80 : 0) | (withPassword ? 0x40 : 0) | 0x02;
  return packet(
    CONNECT,
    0,
    field('MQTT'),
    // Protocol level 4 (3.1.1), the flags, keep-alive 0.
    Buffer.from([4, flags, 0, 0]),
    field(`warden-${randomBytes(4).toString('hex')}`),
    ...(config.username !== undefined ? [field(config.username)] : []),
    ...(withPassword ? [field(Buffer.from(config.password as string, 'utf8'))] : []),
  );
}

function subscribe(topic: string): Buffer {
  const id = Buffer.alloc(2);
  id.writeUInt16BE(SUBSCRIBE_ID);
  return packet(8, 0x02, id, field(topic), Buffer.from([0]));
}

/** The packet at the start of `buffer`, or undefined while it is still arriving; throws on a malformed length. */
function readPacket(buffer: Buffer): { type: number; flags: number; body: Buffer; end: number } | undefined {
  let length = 0;
  let at = 1;
  for (let multiplier = 1; ; multiplier *= 128) {
    if (at >= buffer.length) return undefined;
    if (at > 4) throw new Error('a remaining length longer than four bytes');
    const byte = buffer[at++] as number;
    length += (byte & 0x7f) * multiplier;
    if (!(byte & 0x80)) break;
  }
  if (buffer.length < at + length) return undefined;
  const first = buffer[0] as number;
  return { type: first >> 4, flags: first & 0x0f, body: buffer.subarray(at, at + length), end: at + length };
}
