// Any HTTP endpoint: the event as JSON, signed per the Standard Webhooks specification so a receiver verifies it with
// any Standard Webhooks library. Wire format:
//   POST {url}   content-type: application/json   (+ the configured headers)
//   webhook-id: <event.id>            stable per event: a receiver drops a retry it has already seen
//   webhook-timestamp: <ctx.now in whole seconds>
//   webhook-signature: v1,<base64 HMAC-SHA256 of "<id>.<timestamp>.<body>" keyed by the secret's bytes after whsec_>
//   body: { "type": event.kind, "timestamp": ISO time of event.at, "data": the NotificationEvent,
//           "message": { title?, body? } only when the channel has a message template: what it rendered }
import { createHmac, randomBytes } from 'node:crypto';
import { z } from 'zod';
import { defineChannel, type NotificationEvent } from './channel.js';
import { endpointUrl } from './fields.js';
import { postRequest } from './http-send.js';

const SECRET_PREFIX = 'whsec_';
const SECRET_MESSAGE = 'expected a Standard Webhooks secret: whsec_ followed by 24 to 64 bytes in base64';
// Only warden.yaml (and what imports write for it) can leave it out and be refused: the API and dashboard generate one.
const SECRET_MISSING =
  'expected a Standard Webhooks secret (whsec_ followed by 24 to 64 bytes in base64): a file sets its own, such as an environment variable holding the output of: echo "whsec_$(openssl rand -base64 32)"';
/** Headers the signature and body own; the configured ones may not replace them. */
const RESERVED_HEADERS = new Set([
  'webhook-id',
  'webhook-timestamp',
  'webhook-signature',
  'content-type',
  'content-length',
  'host',
  'transfer-encoding',
  'connection',
]);
const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]{1,100}$/;

export const webhookSigningSecret = () =>
  z
    .string({ error: (issue) => (issue.input === undefined ? SECRET_MISSING : SECRET_MESSAGE) })
    .regex(/^whsec_[A-Za-z0-9+/]+={0,2}$/, { error: SECRET_MESSAGE })
    .refine(
      (secret) => {
        const bytes = secretBytes(secret).length;
        return bytes >= 24 && bytes <= 64;
      },
      { error: SECRET_MESSAGE },
    );

export const webhookChannel = defineChannel({
  type: 'webhook',
  label: 'Webhook (Standard Webhooks)',
  // The event goes as JSON, its title and reason whole.
  textLimits: {},
  config: z
    .object({
      url: endpointUrl('webhook URL'),
      secret: webhookSigningSecret().describe(
        'The signing secret (whsec_…); receivers verify webhook-signature with it.',
      ),
      headers: z
        .record(
          z.string().regex(HEADER_NAME, { error: 'expected an HTTP header name' }),
          z
            .string()
            .max(4096)
            .regex(/^[^\r\n\0]*$/, { error: 'header values may not contain line breaks' }),
        )
        .refine((headers) => Object.keys(headers).length <= 20, { error: 'expected at most 20 headers' })
        .refine((headers) => Object.keys(headers).every((name) => !RESERVED_HEADERS.has(name.toLowerCase())), {
          error: `these headers are set by Warden: ${[...RESERVED_HEADERS].join(', ')}`,
        })
        .optional()
        .describe('Extra headers sent with every delivery, such as Authorization.'),
    })
    .strict(),
  secrets: ['secret', 'headers'],
  generatedSecret: { field: 'secret', generate: () => generateWebhookSecret() },
  // One's own endpoint: several at once, each monitor's events still in order.
  maxInFlight: 8,
  // `data` stays Warden's event; the template's words come beside it.
  templateOutput: 'attach',
  send: (event, config, ctx) => {
    const body = webhookBody(event);
    const timestamp = Math.floor(ctx.now / 1000);
    const headers = {
      ...config.headers,
      'content-type': 'application/json',
      ...signatureHeaders(config.secret, event.id, timestamp, body),
    };
    return postRequest({ url: config.url, headers, body }, ctx);
  },
});

/** The JSON body, serialized once: the signature covers these exact bytes. */
export function webhookBody(event: NotificationEvent): string {
  const { message, ...data } = event;
  const timestamp = new Date(event.at).toISOString();
  return JSON.stringify({ type: event.kind, timestamp, data, ...(message ? { message } : {}) });
}

export function signatureHeaders(secret: string, id: string, timestamp: number, body: string): Record<string, string> {
  const signature = createHmac('sha256', secretBytes(secret)).update(`${id}.${timestamp}.${body}`).digest('base64');
  return { 'webhook-id': id, 'webhook-timestamp': String(timestamp), 'webhook-signature': `v1,${signature}` };
}

/** A new signing secret (32 random bytes) for a webhook channel created without one. */
export function generateWebhookSecret(): string {
  return `${SECRET_PREFIX}${randomBytes(32).toString('base64')}`;
}

function secretBytes(secret: string): Buffer {
  return Buffer.from(secret.startsWith(SECRET_PREFIX) ? secret.slice(SECRET_PREFIX.length) : secret, 'base64');
}
