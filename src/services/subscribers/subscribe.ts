// A visitor subscribes to a page's incidents and maintenance. By email: a double opt-in, the confirmation link mailed at
// once (its token exists only in that mail; the store keeps a hash), the same answer whether or not the address was
// subscribed already, within the per-page and per-client caps. By webhook: the URL must answer a signed verification
// request with its challenge (whoever controls the endpoint asked for it), and is then confirmed at once; the signing
// secret is answered once (a new one each time the URL is verified again).
import type { z } from 'zod';
import { ConflictError, ForbiddenError, NotFoundError, WardenError } from '../../domain/errors.js';
import { newId } from '../../domain/ids.js';
import type { Page } from '../../domain/page.js';
import { newSubscriberToken, type PageSubscriber, SUBSCRIBER_LIMITS } from '../../domain/subscriber.js';
import { hashSecret } from '../../domain/tokens.js';
import { sendMail } from '../../notify/channels/email.js';
import { generateWebhookSecret } from '../../notify/channels/webhook.js';
import { targetPolicyOf, unsubscribeUrl } from '../../notify/dispatch/subscriber-targets.js';
import { buildConfirmationMail } from '../../notify/mail/confirmation-mail.js';
import { parseInput, uniquely, withTransaction } from '../context.js';
import { type CommunityOutcome, subscribeDiscord, subscribeSlack } from './community.js';
import { assertRoom, type PageRef, pageFull, pageRef } from './room.js';
import { type SubscriberContext, subscribeSchema } from './schema.js';
import { verifyWebhook } from './verify-webhook.js';

export { assertRoom, type PageRef, pageFull, pageRef, TooManyPendingError } from './room.js';

export type SubscribeOutcome =
  /** The answer to every email request: a confirmation link is on its way if the address can take one. */
  | { kind: 'email'; page: PageRef }
  | { kind: 'webhook'; page: PageRef; id: string; secret: string; unsubscribeUrl: string }
  | CommunityOutcome;

/** No system SMTP server: nobody can subscribe by email. */
export class EmailUnavailableError extends WardenError {
  readonly status = 503;
  readonly title = 'Email unavailable';
  readonly code = 'email-unavailable';
  constructor() {
    super('This server sends no email (no SMTP server is set): subscribe with a webhook instead.');
  }
}

/** The confirmation mail could not be handed to the SMTP server; nothing was kept, so asking again works. */
export class MailFailedError extends WardenError {
  readonly status = 503;
  readonly title = 'Mail not sent';
  readonly code = 'mail-failed';
}

export async function subscribe(
  ctx: SubscriberContext,
  input: z.input<typeof subscribeSchema>,
): Promise<SubscribeOutcome> {
  const { slug, client, body } = parseInput(subscribeSchema, input);
  const page = await subscribablePage(ctx, slug);
  if (body.email !== undefined) return subscribeEmail(ctx, page, body.email, client);
  if (body.discord !== undefined) return subscribeDiscord(ctx, page, body.discord);
  if (body.slack !== undefined) return subscribeSlack(ctx, page, body.slack, client);
  return subscribeWebhook(ctx, page, body.webhook as string);
}

/** The page, if it takes subscriptions now (read from the store, not a cache: a page just closed takes none). */
export async function subscribablePage(ctx: SubscriberContext, slug: string): Promise<Page> {
  const page = await ctx.store.pages.findBySlug(slug);
  if (!page) throw new NotFoundError('page', slug);
  if (page.passwordHash !== null)
    throw new ForbiddenError('This page is password-protected: it takes no public subscriptions.');
  if (!page.subscriptions) throw new ForbiddenError('This page takes no subscriptions.');
  return page;
}

async function subscribeEmail(
  ctx: SubscriberContext,
  page: Page,
  address: string,
  client: string,
): Promise<SubscribeOutcome> {
  const smtp = ctx.smtp;
  if (!smtp) throw new EmailUnavailableError();
  const ref = pageRef(ctx, page);
  const now = ctx.clock.now();
  const expiresAt = now + SUBSCRIBER_LIMITS.confirmWithinMs;
  // The mail goes out after the commit; a failed send takes the new row back.
  const toMail = await once(ctx, () =>
    withTransaction(ctx, async (tx) => {
      const existing = await tx.store.subscribers.findByAddress(page.id, 'email', address);
      // Confirmed already, or a link sent a moment ago: the same answer, and no mail (nobody floods an inbox through us).
      if (existing && (existing.confirmedAt !== null || now - existing.createdAt < SUBSCRIBER_LIMITS.resendAfterMs))
        return null;
      await assertRoom(tx, page, client, existing === undefined);
      const id = existing?.id ?? newId('sub');
      const token = newSubscriberToken(id);
      if (existing)
        await tx.store.subscribers.renewPending(id, {
          confirmTokenHash: hashSecret(token),
          expiresAt,
          requestedBy: client,
          createdAt: now,
        });
      else
        await tx.store.subscribers.insert({
          id,
          organizationId: page.organizationId,
          pageId: page.id,
          kind: 'email',
          format: 'warden',
          address,
          secret: null,
          confirmTokenHash: hashSecret(token),
          unsubscribeToken: newSubscriberToken(id),
          confirmedAt: null,
          expiresAt,
          requestedBy: client,
          createdAt: now,
        });
      return { id, token, renewed: existing !== undefined };
    }),
  );
  if (!toMail) return { kind: 'email', page: ref };
  const confirmUrl = `${ctx.baseUrl ?? ''}/s/${page.slug}/subscribe/confirm?token=${encodeURIComponent(toMail.token)}`;
  const message = buildConfirmationMail({
    to: address,
    from: smtp.from,
    page: ref,
    confirmUrl,
    validHours: SUBSCRIBER_LIMITS.confirmWithinMs / 3_600_000,
    now,
  });
  const outcome = await sendMail(smtp, message, AbortSignal.timeout(SUBSCRIBER_LIMITS.webhookVerifyTimeoutMs * 2));
  if (outcome.kind !== 'sent') {
    ctx.logger.warn(
      { page: page.slug, subscriber: toMail.id, error: outcome.error, status: outcome.status },
      'a subscription confirmation mail was not sent',
    );
    // A renewed one keeps its row (with a link that was never sent); a new one goes, so the visitor may simply ask again.
    if (!toMail.renewed) await ctx.store.subscribers.delete(toMail.id);
    throw new MailFailedError('The confirmation mail could not be sent just now; try again later.');
  }
  ctx.logger.info({ page: page.slug, subscriber: toMail.id }, 'subscription confirmation mailed');
  return { kind: 'email', page: ref };
}

async function subscribeWebhook(ctx: SubscriberContext, page: Page, url: string): Promise<SubscribeOutcome> {
  const ref = pageRef(ctx, page);
  const policy = await targetPolicyOf(ctx.store, page.organizationId, ctx.privateTargets);
  const secret = generateWebhookSecret();
  // Outside any transaction: a network exchange of up to a few seconds.
  await verifyWebhook({ url, secret, policy, page: ref, now: ctx.clock.now() });
  const now = ctx.clock.now();
  const subscriber = await uniquely(
    ctx,
    () =>
      withTransaction(ctx, async (tx) => {
        const existing = await tx.store.subscribers.findByAddress(page.id, 'webhook', url);
        if (existing && existing.format !== 'warden')
          throw new ConflictError('This URL is subscribed to the page already, as a Discord or Slack webhook.');
        if (existing) {
          // The endpoint answered its challenge again: whoever controls it gets a new secret; the old one stops signing.
          await tx.store.subscribers.setSecret(existing.id, secret);
          return existing;
        }
        const { confirmed } = await tx.store.subscribers.counts(page.id);
        if (confirmed >= SUBSCRIBER_LIMITS.confirmedPerPage) throw pageFull();
        const id = newId('sub');
        const created: PageSubscriber = {
          id,
          organizationId: page.organizationId,
          pageId: page.id,
          kind: 'webhook',
          format: 'warden',
          address: url,
          secret,
          confirmTokenHash: null,
          unsubscribeToken: newSubscriberToken(id),
          confirmedAt: now,
          expiresAt: null,
          requestedBy: null,
          createdAt: now,
        };
        await tx.store.subscribers.insert(created);
        return created;
      }),
    'the webhook was being subscribed by another request at the same moment; try again',
  );
  ctx.logger.info({ page: page.slug, subscriber: subscriber.id }, 'webhook subscribed');
  return {
    kind: 'webhook',
    page: ref,
    id: subscriber.id,
    secret,
    unsubscribeUrl: unsubscribeUrl(ctx.baseUrl ?? '', page.slug, subscriber.unsubscribeToken),
  };
}

/** Two requests for the same address at once: the second finds the first's row taken, and gets the same answer. */
async function once<T>(ctx: SubscriberContext, work: () => Promise<T | null>): Promise<T | null> {
  try {
    return await work();
  } catch (error) {
    if (ctx.store.isUniqueViolation(error)) return null;
    throw error;
  }
}
