// The outside view of a notification channel (API, CLI): everything but its secrets — and, for those who may not edit
// channels, its URLs cut to their scheme and host (an ntfy topic, a key in a webhook's path or query is a credential
// itself) — and its deliveries' log, each attempt classified (notify/channels/outcome.ts).
import { z } from 'zod';
import { type Role, roleAtLeast } from '../../domain/account.js';
import type { Delivery, NotificationChannel } from '../../domain/notification.js';
import { ownershipFields, ownershipOf } from '../../domain/ownership.js';
import { DELIVERY_FAILURES, failureOf } from '../../notify/channels/outcome.js';
import { CHANNEL_TYPES, type ChannelType, channelDefinition } from '../../notify/channels/registry.js';
import { REDACTED } from '../monitors/view.js';
import { pick } from '../view-fields.js';
import { rules } from './schema.js';

/** The weakest role that edits channels, and so reads their URLs whole. */
export const CHANNEL_EDITOR: Role = 'admin';

export const channelViewSchema = z.object({
  id: z.string(),
  key: z.string(),
  name: z.string(),
  type: z.enum(CHANNEL_TYPES),
  config: z
    .record(z.string(), z.unknown())
    .describe(
      `The type's configuration; secret fields read "${REDACTED}". To those who cannot edit channels (viewers, editors, read keys) a URL shows its scheme and host only: "https://ntfy.sh/${REDACTED}".`,
    ),
  rules: rules.describe(
    'What the channel gets and when (docs/notifications.md, "Rules"); absent fields take their defaults.',
  ),
  enabled: z.boolean(),
  ...ownershipFields(),
});

export type ChannelView = z.infer<typeof channelViewSchema>;

/** The answer to a create: the channel, and the secret Warden generated for it, this once. */
export const channelCreatedSchema = channelViewSchema.extend({
  secret: z
    .string()
    .optional()
    .describe(
      'Only when the body left a generated secret out (a webhook\'s `config.secret`): the signing secret Warden made, whsec_…. Shown in this answer only; later reads show "[redacted]".',
    ),
});

export type CreatedChannel = z.infer<typeof channelCreatedSchema>;

/** The channel as `role` sees it: secrets redacted for all, URLs cut to their origin for those who cannot edit channels. */
export function channelView(channel: NotificationChannel, role: Role): ChannelView {
  const config = redactChannelConfig(channel.type as ChannelType, channel.config);
  return {
    id: channel.id,
    key: channel.key,
    name: channel.name,
    type: channel.type as ChannelType,
    config: roleAtLeast(role, CHANNEL_EDITOR) ? config : originsOnly(config),
    rules: channel.rules,
    enabled: channel.enabled,
    ...ownershipOf(channel),
  };
}

export function redactChannelConfig(type: ChannelType, config: Record<string, unknown>): Record<string, unknown> {
  const out = { ...config };
  for (const field of channelDefinition(type).secrets) if (out[field] !== undefined) out[field] = REDACTED;
  return out;
}

/** Every URL in a config (any field, however deep) as its scheme and host, the rest redacted. */
function originsOnly(config: Record<string, unknown>): Record<string, unknown> {
  const walk = (value: unknown): unknown => {
    if (typeof value === 'string') return originOnly(value);
    if (Array.isArray(value)) return value.map(walk);
    if (value !== null && typeof value === 'object')
      return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, walk(item)]));
    return value;
  };
  return walk(config) as Record<string, unknown>;
}

/**
 * A URL's scheme, host and port, and "/[redacted]" for anything more (user and password, path, query, fragment): enough
 * to recognise where it points, none of what may be a credential. Other text is returned as it is.
 */
export function originOnly(text: string): string {
  if (!/^[a-z][a-z0-9+.-]*:\/\//i.test(text)) return text;
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return REDACTED;
  }
  const origin = `${url.protocol}//${url.host}`;
  const more =
    url.username !== '' ||
    url.password !== '' ||
    url.pathname.replace(/^\/$/, '') !== '' ||
    url.search !== '' ||
    url.hash !== '';
  return more ? `${origin}/${REDACTED}` : origin;
}

export const deliveryViewSchema = z.object({
  id: z.string(),
  eventId: z.string().describe('Stable per event: the webhook-id a receiver drops duplicates by.'),
  kind: z.string().describe('monitor.down, monitor.recovered, …, or test.'),
  monitorId: z.string().nullable(),
  status: z
    .enum(['pending', 'sending', 'sent', 'dead', 'skipped'])
    .describe(
      'dead: given up (a 4xx answer, or still failing after 24 h), the answer kept; skipped: a rule no longer wanted it when it was due (lastError says which).',
    ),
  attempts: z.number().int(),
  nextAttemptAt: z.number().int().describe('When it is tried next, while pending (epoch ms).'),
  lastError: z
    .string()
    .nullable()
    .describe(
      'What went wrong at the last attempt; it starts with the words of its class (lastFailure): "refused by policy: …", "connection refused", "timed out", "HTTP 404".',
    ),
  lastFailure: z
    .enum(DELIVERY_FAILURES)
    .nullable()
    .describe(
      "The class of the last attempt's failure (null when sent or not tried): refused (the organization's target policy refused the address: nothing was sent), connection-refused, timed-out, host-not-found, connection-failed (TLS, reset, unreachable), status (the receiver answered with an error status: lastStatus), not-sent (the channel could not send: disabled, invalid config, no SMTP server).",
    ),
  lastStatus: z.number().int().nullable().describe("The receiver's HTTP or SMTP status at the last attempt."),
  lastAnswer: z
    .string()
    .nullable()
    .describe(
      "The start of the receiver's answer at the last attempt: only from an address the target policy allowed.",
    ),
  createdAt: z.number().int(),
  sentAt: z.number().int().nullable(),
});

export type DeliveryView = z.infer<typeof deliveryViewSchema>;

export function deliveryView(d: Delivery): DeliveryView {
  return {
    ...pick(d, ['id', 'eventId', 'kind', 'monitorId', 'status', 'attempts', 'nextAttemptAt', 'lastError']),
    lastFailure: failureOf(d),
    ...pick(d, ['lastStatus', 'lastAnswer', 'createdAt', 'sentAt']),
  };
}
