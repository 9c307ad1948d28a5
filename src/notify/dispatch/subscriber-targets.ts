// Where a page subscriber's delivery goes: an email through the system SMTP server (the email channel's message, with
// an unsubscribe link and one-click List-Unsubscribe, RFC 8058), or a webhook signed as the webhook channel signs, posted
// like a channel's under the organization's target policy (the dispatcher's guard). The dispatcher asks this for
// deliveries without a channel.
import { z } from 'zod';
import type { Delivery } from '../../domain/notification.js';
import { probeTargetPolicies } from '../../domain/organization.js';
import type { ProbeTargetPolicy } from '../../domain/security.js';
import type { Logger } from '../../logger.js';
import type { Store } from '../../store/index.js';
import { type ChannelDefinition, defineChannel } from '../channels/channel.js';
import { buildEmail, sendMail } from '../channels/email.js';
import { postRequest } from '../channels/http-send.js';
import { signatureHeaders, webhookBody, webhookSigningSecret } from '../channels/webhook.js';
import { communityDefinitions } from './community-targets.js';

/** A subscriber's target, as the dispatcher sends it; `dead` when it can never be sent, null when the subscriber is gone. */
export type SubscriberTarget =
  // biome-ignore lint/suspicious/noExplicitAny: each definition's own schema parses `config`.
  { label: string; definition: ChannelDefinition<any>; config: Record<string, unknown> } | { dead: string } | null;

export interface SubscriberTargetDeps {
  store: Store;
  /** The service's public address, for the unsubscribe link. */
  baseUrl: () => string;
  logger?: Logger | undefined;
}

/** The unsubscribe link of a subscriber's messages: GET shows a confirmation button, POST (one click) unsubscribes. */
export function unsubscribeUrl(baseUrl: string, slug: string, token: string): string {
  return `${baseUrl}/s/${slug}/unsubscribe?token=${encodeURIComponent(token)}`;
}

/** The organization's policy on private addresses, as the probes apply it. */
export async function targetPolicyOf(
  store: Store,
  organizationId: string,
  global: ProbeTargetPolicy | 'auto' = 'auto',
): Promise<ProbeTargetPolicy> {
  return probeTargetPolicies(await store.organizations.list(), global).get(organizationId) ?? 'deny';
}

export function createSubscriberTargets(deps: SubscriberTargetDeps): (delivery: Delivery) => Promise<SubscriberTarget> {
  const community = communityDefinitions(deps);
  return async (delivery) => {
    if (delivery.subscriberId === null) return null;
    const subscriber = await deps.store.subscribers.findById(delivery.subscriberId);
    if (!subscriber) return null; // unsubscribed meanwhile: its deliveries went with it
    const page = await deps.store.pages.findById(subscriber.pageId);
    if (!page) return null;
    if (!page.subscriptions || page.passwordHash !== null) return { dead: 'the page no longer takes subscriptions' };
    // Unsubscribed meanwhile (a Discord webhook found deleted): what was queued for it is not sent.
    if (subscriber.confirmedAt === null) return { dead: 'the subscriber is not subscribed any more' };
    const label = `subscriber ${subscriber.id}`;
    if (subscriber.kind === 'email')
      return {
        label,
        definition: subscriberEmail,
        config: {
          to: subscriber.address,
          unsubscribeUrl: unsubscribeUrl(deps.baseUrl(), page.slug, subscriber.unsubscribeToken),
          messageKey: subscriber.id,
        },
      };
    if (subscriber.format === 'discord')
      return { label, definition: community.discord, config: { url: subscriber.address, subscriberId: subscriber.id } };
    if (subscriber.format === 'slack')
      return { label, definition: community.slack, config: { url: subscriber.address } };
    if (!subscriber.secret) return { dead: 'the webhook subscriber has no signing secret' };
    return { label, definition: subscriberWebhook, config: { url: subscriber.address, secret: subscriber.secret } };
  };
}

const subscriberEmail = defineChannel({
  type: 'subscriber-email',
  label: 'Page subscriber (email)',
  config: z.object({ to: z.email(), unsubscribeUrl: z.string(), messageKey: z.string() }),
  secrets: [],
  targets: ['to'],
  send: async (event, config, ctx) => {
    if (!ctx.smtp)
      return {
        kind: 'dead',
        status: null,
        error: 'no system SMTP server is set (WARDEN_SMTP_URL, or smtp: in warden.yaml)',
      };
    const message = buildEmail(
      event,
      { to: config.to, from: ctx.smtp.from },
      { unsubscribeUrl: config.unsubscribeUrl, messageKey: config.messageKey },
    );
    return sendMail(ctx.smtp, message, ctx.signal);
  },
});

const subscriberWebhook = defineChannel({
  type: 'subscriber-webhook',
  label: 'Page subscriber (webhook)',
  config: z.object({ url: z.string(), secret: webhookSigningSecret() }),
  secrets: ['secret'],
  targets: ['url'],
  send: (event, config, ctx) => {
    const body = webhookBody(event);
    const headers = signatureHeaders(config.secret, event.id, Math.floor(ctx.now / 1000), body);
    return postRequest({ url: config.url, headers: { ...headers, 'content-type': 'application/json' }, body }, ctx);
  },
});
