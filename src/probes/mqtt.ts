// MQTT: connect (TLS if asked), log in, and optionally subscribe to a topic and compare the first message on it (a
// retained one, or the next to come). mqtt.js speaks MQTT 3.1.1 over a socket the target guard opened.
import type { Socket } from 'node:net';
import type { TLSSocket } from 'node:tls';
import type { MqttClient } from 'mqtt';
import { z } from 'zod';
import { timedOutAfter } from '../net/network-error.js';
import { openTcp, openTls } from '../net/socket-exchange.js';
import { answerText, cut, expectedField, judgeAnswer } from './answer.js';
import { stopwatch } from './exchange.js';
import { port } from './fields.js';
import { defineProbe, type ProbeContext, withLibrary } from './probe.js';
import { expectedNeeds, loginFields, serviceName, tlsFields } from './service-fields.js';
import { overSocket } from './session.js';

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
  probe: withLibrary(
    async () => (await import('mqtt')).MqttClient,
    (Client) => async (config, ctx) => {
      const elapsed = stopwatch();
      const port = config.port ?? (config.tls ? 8883 : 1883);
      const socket: Socket | TLSSocket = config.tls
        ? openTls(ctx, config.host, port, { rejectUnauthorized: !config.ignoreTls })
        : openTcp(ctx, config.host, port);
      const outcome = await session(Client, socket, config, ctx);
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
  ),
});

type Outcome = { message?: Buffer; retained?: boolean } | { error: string };

function session(
  Client: typeof MqttClient,
  socket: Socket | TLSSocket,
  config: z.output<typeof mqttConfig>,
  ctx: ProbeContext,
): Promise<Outcome> {
  const client = new Client(() => socket, {
    protocolVersion: 4,
    clientId: `warden-${Math.random().toString(16).slice(2, 10)}`,
    username: config.username,
    password: config.password,
    clean: true,
    // No reconnecting, no keepalive pings: one check, then gone. The probe keeps the deadline.
    reconnectPeriod: 0,
    keepalive: 0,
    connectTimeout: ctx.timeoutMs,
  });
  client.on('error', () => {});
  const work = () =>
    new Promise<Outcome>((resolve, reject) => {
      client.once('error', reject);
      client.once('close', () => reject(new Error('connection closed by the server')));
      client.once('connect', () => {
        if (config.topic === undefined) return resolve({});
        client.on('message', (_topic, payload, packet) => resolve({ message: payload, retained: packet.retain }));
        const refused = new Error(`the broker refused the subscription to ${cut(config.topic as string, 100)}`);
        client.subscribe(config.topic, { qos: 0 }, (error, granted) => {
          // mqtt.js reports a SUBACK of 0x80 as "Subscribe error: …", or as a granted QoS of 128.
          if (error) return reject(error.message.startsWith('Subscribe error') ? refused : error);
          if (granted?.[0]?.qos === 128) reject(refused);
        });
      });
    });
  return overSocket(
    socket,
    ctx,
    work,
    () => client.end(true),
    (error) => describeMqttError(error, ctx.timeoutMs),
  );
}

/** mqtt.js words a refused CONNACK "Connection refused: Bad username or password"; a timeout its own way. */
function describeMqttError(error: unknown, timeoutMs: number): string | undefined {
  const message = error instanceof Error ? error.message : undefined;
  if (message === 'connack timeout') return timedOutAfter(timeoutMs);
  if (message?.startsWith('Connection refused: '))
    return `the broker refused the connection: ${message.slice('Connection refused: '.length)}`;
  return message && !(error as { code?: unknown }).code ? message : undefined;
}
