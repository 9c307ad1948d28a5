// What the links in the mails do: confirm a pending subscription (GET …/subscribe/confirm?token=), and unsubscribe
// (…/unsubscribe?token=: GET reads what it would do, POST does it, as a one-click mail client posts it, RFC 8058).
// A token names its subscriber by id and is compared in constant time; a wrong or spent one says only that it is not valid.
import type { z } from 'zod';
import { NotFoundError } from '../../domain/errors.js';
import type { Page } from '../../domain/page.js';
import { type PageSubscriber, SUBSCRIBER_LIMITS, subscriberIdOf, tokenMatches } from '../../domain/subscriber.js';
import { secretMatchesHash } from '../../domain/tokens.js';
import { parseInput, withTransaction } from '../context.js';
import { type SubscriberContext, subscriberTokenSchema } from './schema.js';
import { type PageRef, pageFull, pageRef } from './subscribe.js';

export type ConfirmOutcome =
  | { outcome: 'confirmed'; page: PageRef; address: string }
  /** Not valid (any more): unknown, expired, or used already. */
  | { outcome: 'invalid'; page: PageRef };

export async function confirmSubscription(
  ctx: SubscriberContext,
  input: z.input<typeof subscriberTokenSchema>,
): Promise<ConfirmOutcome> {
  const { slug, token } = parseInput(subscriberTokenSchema, input);
  const page = await pageOf(ctx, slug);
  const ref = pageRef(ctx, page);
  const now = ctx.clock.now();
  return withTransaction(ctx, async (tx) => {
    const subscriber = await subscriberOf(tx, page, token);
    const valid =
      subscriber?.confirmedAt === null &&
      subscriber.confirmTokenHash !== null &&
      secretMatchesHash(token, subscriber.confirmTokenHash) &&
      (subscriber.expiresAt === null || subscriber.expiresAt > now) &&
      page.subscriptions &&
      page.passwordHash === null;
    if (!subscriber || !valid) return { outcome: 'invalid', page: ref };
    const { confirmed } = await tx.store.subscribers.counts(page.id);
    if (confirmed >= SUBSCRIBER_LIMITS.confirmedPerPage) throw pageFull();
    if (!(await tx.store.subscribers.confirm(subscriber.id, now))) return { outcome: 'invalid', page: ref };
    tx.logger.info({ page: page.slug, subscriber: subscriber.id }, 'subscription confirmed');
    return { outcome: 'confirmed', page: ref, address: subscriber.address };
  });
}

export type UnsubscribeOutcome =
  | { outcome: 'subscribed'; page: PageRef; address: string }
  | { outcome: 'unsubscribed'; page: PageRef; address: string }
  /** Nothing to unsubscribe with this token (done already, or not a token of this page). */
  | { outcome: 'invalid'; page: PageRef };

/** What an unsubscribe link would do (GET): whom it unsubscribes, or that it is not valid. Changes nothing. */
export async function readUnsubscribe(
  ctx: SubscriberContext,
  input: z.input<typeof subscriberTokenSchema>,
): Promise<UnsubscribeOutcome> {
  const { slug, token } = parseInput(subscriberTokenSchema, input);
  const page = await pageOf(ctx, slug);
  const subscriber = await subscriberOf(ctx, page, token);
  if (!subscriber || !tokenMatches(token, subscriber.unsubscribeToken))
    return { outcome: 'invalid', page: pageRef(ctx, page) };
  return { outcome: 'subscribed', page: pageRef(ctx, page), address: subscriber.address };
}

/** Unsubscribes (POST): the subscriber and its pending deliveries go. */
export async function unsubscribe(
  ctx: SubscriberContext,
  input: z.input<typeof subscriberTokenSchema>,
): Promise<UnsubscribeOutcome> {
  const { slug, token } = parseInput(subscriberTokenSchema, input);
  const page = await pageOf(ctx, slug);
  const ref = pageRef(ctx, page);
  return withTransaction(ctx, async (tx) => {
    const subscriber = await subscriberOf(tx, page, token);
    if (!subscriber || !tokenMatches(token, subscriber.unsubscribeToken)) return { outcome: 'invalid', page: ref };
    await tx.store.subscribers.delete(subscriber.id);
    tx.logger.info({ page: page.slug, subscriber: subscriber.id }, 'unsubscribed');
    return { outcome: 'unsubscribed', page: ref, address: subscriber.address };
  });
}

/** The page by slug, whatever its settings now (an unsubscribe link works after subscriptions were turned off). */
async function pageOf(ctx: SubscriberContext, slug: string): Promise<Page> {
  const page = await ctx.store.pages.findBySlug(slug);
  if (!page) throw new NotFoundError('page', slug);
  return page;
}

async function subscriberOf(ctx: SubscriberContext, page: Page, token: string): Promise<PageSubscriber | undefined> {
  const id = subscriberIdOf(token);
  const subscriber = id ? await ctx.store.subscribers.findById(id) : undefined;
  return subscriber?.pageId === page.id ? subscriber : undefined;
}
