// A community subscribes its channel: a Discord or Slack incoming webhook cannot answer Warden's challenge, so each is
// proven otherwise. Discord's webhook is asked about through Discord's own API (it answers the guild and channel), and
// is confirmed at once; a Slack one waits for the page's admins to approve it, and gets nothing until then.

import { ConflictError, ValidationError } from '../../domain/errors.js';
import { newId } from '../../domain/ids.js';
import type { Page } from '../../domain/page.js';
import {
  newSubscriberToken,
  type PageSubscriber,
  SUBSCRIBER_LIMITS,
  type SubscriberFormat,
} from '../../domain/subscriber.js';
import { targetPolicyOf } from '../../notify/dispatch/subscriber-targets.js';
import { uniquely, withTransaction } from '../context.js';
import { assertRoom, type PageRef, pageFull, pageRef } from './room.js';
import type { SubscriberContext } from './schema.js';
import { type DiscordWebhookInfo, verifyDiscordWebhook } from './verify-discord.js';
import { schemeRefusal } from './verify-webhook.js';

export type CommunityOutcome =
  | { kind: 'discord'; page: PageRef; id: string; webhook: DiscordWebhookInfo }
  | { kind: 'slack'; page: PageRef; id: string };

const TAKEN = 'This URL is subscribed to the page already, as another kind of webhook.';

export async function subscribeDiscord(ctx: SubscriberContext, page: Page, url: string): Promise<CommunityOutcome> {
  const policy = await targetPolicyOf(ctx.store, page.organizationId, ctx.privateTargets);
  // Outside any transaction: a network exchange of up to a few seconds.
  const webhook = await verifyDiscordWebhook(url, policy);
  const now = ctx.clock.now();
  const subscriber = await uniquely(
    ctx,
    () =>
      withTransaction(ctx, async (tx) => {
        const existing = await tx.store.subscribers.findByAddress(page.id, 'webhook', url);
        if (existing && existing.format !== 'discord') throw new ConflictError(TAKEN);
        // Lapsed (a delivery once found it gone) but Discord knows it now: subscribed again.
        if (existing?.confirmedAt === null) await tx.store.subscribers.confirm(existing.id, now);
        if (existing) return existing;
        const { confirmed } = await tx.store.subscribers.counts(page.id);
        if (confirmed >= SUBSCRIBER_LIMITS.confirmedPerPage) throw pageFull();
        const created = communitySubscriber(page, 'discord', url, { confirmedAt: now, requestedBy: null, now });
        await tx.store.subscribers.insert(created);
        return created;
      }),
    'the webhook was being subscribed by another request at the same moment; try again',
  );
  ctx.logger.info(
    { page: page.slug, subscriber: subscriber.id, guild: webhook.guildId, channel: webhook.channelId },
    'Discord webhook subscribed',
  );
  return { kind: 'discord', page: pageRef(ctx, page), id: subscriber.id, webhook };
}

export async function subscribeSlack(
  ctx: SubscriberContext,
  page: Page,
  url: string,
  client: string,
): Promise<CommunityOutcome> {
  const policy = await targetPolicyOf(ctx.store, page.organizationId, ctx.privateTargets);
  const scheme = schemeRefusal(url, policy);
  if (scheme)
    throw new ValidationError([{ path: 'slack', message: scheme }], `The Slack webhook was not subscribed: ${scheme}.`);
  const now = ctx.clock.now();
  const subscriber = await uniquely(
    ctx,
    () =>
      withTransaction(ctx, async (tx) => {
        const existing = await tx.store.subscribers.findByAddress(page.id, 'webhook', url);
        if (existing && existing.format !== 'slack') throw new ConflictError(TAKEN);
        if (existing) return existing;
        // Awaiting approval counts as awaiting confirmation: the same caps per page and per asking client.
        await assertRoom(tx, page, client, true);
        const created = communitySubscriber(page, 'slack', url, { confirmedAt: null, requestedBy: client, now });
        await tx.store.subscribers.insert(created);
        return created;
      }),
    'the webhook was being subscribed by another request at the same moment; try again',
  );
  ctx.logger.info({ page: page.slug, subscriber: subscriber.id }, 'Slack webhook awaits approval');
  return { kind: 'slack', page: pageRef(ctx, page), id: subscriber.id };
}

function communitySubscriber(
  page: Page,
  format: SubscriberFormat,
  url: string,
  o: { confirmedAt: number | null; requestedBy: string | null; now: number },
): PageSubscriber {
  const id = newId('sub');
  return {
    id,
    organizationId: page.organizationId,
    pageId: page.id,
    kind: 'webhook',
    format,
    address: url,
    secret: null,
    confirmTokenHash: null,
    // No link reaches a channel's readers; kept so every subscriber has one (the admins' delete is the way out).
    unsubscribeToken: newSubscriberToken(id),
    confirmedAt: o.confirmedAt,
    // Awaiting the admins, not a link: it does not expire.
    expiresAt: null,
    requestedBy: o.requestedBy,
    createdAt: o.now,
  };
}
