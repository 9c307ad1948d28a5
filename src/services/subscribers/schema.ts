// Inputs of the page subscriber verbs: a visitor's subscribe request, the links' tokens, and the organization's list.
import { z } from 'zod';
import { DISCORD_WEBHOOK_MESSAGE, parseDiscordWebhook } from '../../domain/board.js';
import { queryIntIn, reference } from '../../domain/fields.js';
import type { ProbeTargetPolicy } from '../../domain/security.js';
import { SUBSCRIBER_LIMITS } from '../../domain/subscriber.js';
import type { ServiceContext } from '../context.js';

/** The subscribe verb needs the policy on private addresses too (a webhook URL is checked against it, like a probe's). */
export interface SubscriberContext extends ServiceContext {
  /** WARDEN_PROBE_PRIVATE_TARGETS; each organization's own setting wins. */
  privateTargets?: ProbeTargetPolicy | 'auto' | undefined;
}

const EMAIL_MESSAGE = 'expected an email address';
const WEBHOOK_MESSAGE = 'expected an https:// URL';
const SLACK_MESSAGE = 'expected a Slack incoming webhook URL, https://hooks.slack.com/services/…';

/** An http(s) URL of at most 2048 characters. */
const webhookUrl = (message: string) =>
  z
    .string({ error: message })
    .trim()
    .pipe(z.url({ protocol: /^https?$/, error: message }).max(2048, { error: 'expected at most 2048 characters' }));

const TARGETS = ['email', 'webhook', 'discord', 'slack'] as const;

/** What the subscribe form (or a JSON client) sends: exactly one of `email`, `webhook`, `discord` and `slack`. */
export const subscribeBodySchema = z
  .object({
    email: z
      .string({ error: EMAIL_MESSAGE })
      .trim()
      .toLowerCase()
      .pipe(z.email({ error: EMAIL_MESSAGE }).max(254, { error: 'expected at most 254 characters' }))
      .optional()
      .describe('Subscribe this address: a confirmation link is mailed to it (double opt-in).'),
    webhook: webhookUrl(WEBHOOK_MESSAGE)
      .optional()
      .describe(
        'Subscribe this endpoint: it must answer a verification request (its challenge); the signing secret is answered once.',
      ),
    discord: webhookUrl(DISCORD_WEBHOOK_MESSAGE)
      .refine((url) => parseDiscordWebhook(url) !== undefined, { error: DISCORD_WEBHOOK_MESSAGE })
      .optional()
      .describe(
        'Subscribe this Discord channel webhook: Warden asks Discord about it (GET /webhooks/{id}/{token}) and it is confirmed at once; deleting the webhook in Discord unsubscribes it.',
      ),
    slack: webhookUrl(SLACK_MESSAGE)
      .optional()
      .describe("Subscribe this Slack incoming webhook: nothing is sent until the page's admins approve it."),
  })
  .refine((body) => TARGETS.filter((target) => body[target] !== undefined).length === 1, {
    error: 'expected exactly one of email, webhook, discord and slack',
    path: ['email'],
  });

export const subscribeSchema = z.object({
  slug: reference(),
  /** The client address asking (per-client caps). */
  client: z.string().max(100),
  body: subscribeBodySchema,
});

export const subscriberTokenSchema = z.object({ slug: reference(), token: z.string().max(200) });

export const subscriberListSchema = z.object({
  slug: reference(),
  limit: queryIntIn(1, SUBSCRIBER_LIMITS.listMax).default(100).describe(`At most ${SUBSCRIBER_LIMITS.listMax}.`),
  after: z.string().max(100).optional().describe('The last id of the previous page of the list.'),
});

export const subscriberRefSchema = z.object({ slug: reference(), id: reference() });
