// The organization's view of a page's subscribers: list them (by id, a page at a time, with the counts) and remove one.
// Tokens and webhook secrets are never shown; the client address that asked is not either.
import { z } from 'zod';
import { ConflictError, NotFoundError } from '../../domain/errors.js';
import { type PageSubscriber, SUBSCRIBER_LIMITS, shownKindOf } from '../../domain/subscriber.js';
import { parseInput, type ServiceContext, writeVerb } from '../context.js';
import { requirePage } from '../pages/read.js';
import { subscriberListSchema, subscriberRefSchema } from './schema.js';

export const subscriberViewSchema = z.object({
  id: z.string(),
  kind: z
    .enum(['email', 'webhook', 'discord', 'slack'])
    .describe('email, webhook (signed JSON), or a Discord or Slack incoming webhook that gets a channel message.'),
  address: z.string().describe('The email address, or the webhook URL (a Discord or Slack one with its token hidden).'),
  awaitingApproval: z
    .boolean()
    .describe(
      'A Slack webhook nobody approved yet: nothing is sent to it until an admin approves it (POST …/approve).',
    ),
  confirmed: z
    .boolean()
    .describe('Whether the subscription is confirmed (an email is pending until its link is followed).'),
  confirmedAt: z.number().int().nullable(),
  expiresAt: z
    .number()
    .int()
    .nullable()
    .describe('When an unconfirmed subscription is deleted (48 h after it was asked for).'),
  createdAt: z.number().int(),
});

export type SubscriberView = z.infer<typeof subscriberViewSchema>;

export const subscriberListViewSchema = z.object({
  subscribers: z.array(subscriberViewSchema),
  counts: z.object({ confirmed: z.number().int(), pending: z.number().int() }),
  next: z.string().nullable().describe('Pass as `after` for the next page of the list; null at its end.'),
});

export function subscriberView(s: PageSubscriber): SubscriberView {
  return {
    id: s.id,
    kind: shownKindOf(s),
    address: shownAddress(s),
    awaitingApproval: s.format === 'slack' && s.confirmedAt === null,
    confirmed: s.confirmedAt !== null,
    confirmedAt: s.confirmedAt,
    expiresAt: s.expiresAt,
    createdAt: s.createdAt,
  };
}

export async function listSubscribers(
  ctx: ServiceContext,
  input: z.input<typeof subscriberListSchema>,
): Promise<z.infer<typeof subscriberListViewSchema>> {
  const { slug, limit, after } = parseInput(subscriberListSchema, input);
  const page = await requirePage(ctx, slug);
  const [subscribers, counts] = [
    await ctx.store.subscribers.list(page.id, { limit: limit + 1, after }),
    await ctx.store.subscribers.counts(page.id),
  ];
  const more = subscribers.length > limit;
  const shown = subscribers.slice(0, limit);
  return { subscribers: shown.map(subscriberView), counts, next: more ? (shown[shown.length - 1]?.id ?? null) : null };
}

/** A community webhook's URL is its credential: its token is never shown (the ids before it say which one it is). */
function shownAddress(s: PageSubscriber): string {
  if (s.format === 'warden') return s.address;
  return s.address.replace(/\/[^/]+\/?$/, '/…');
}

/** Approves a Slack webhook awaiting approval: the page's incidents and maintenance go to it from now on. */
export const approveSubscriber = writeVerb(subscriberRefSchema, async (tx, { slug, id }): Promise<SubscriberView> => {
  const page = await requirePage(tx, slug);
  const subscriber = await tx.store.subscribers.findById(id);
  if (!subscriber || subscriber.pageId !== page.id) throw new NotFoundError('subscriber', id);
  if (subscriber.format !== 'slack') throw new ConflictError('Only a Slack webhook awaits approval.');
  if (subscriber.confirmedAt !== null) return subscriberView(subscriber);
  if ((await tx.store.subscribers.counts(page.id)).confirmed >= SUBSCRIBER_LIMITS.confirmedPerPage)
    throw new ConflictError(`This page has as many subscribers as it may (${SUBSCRIBER_LIMITS.confirmedPerPage}).`);
  const now = tx.clock.now();
  await tx.store.subscribers.confirm(id, now);
  return subscriberView({ ...subscriber, confirmedAt: now, expiresAt: null, confirmTokenHash: null });
});

/** Removes a subscriber (it gets nothing more, and is not told). */
export const deleteSubscriber = writeVerb(subscriberRefSchema, async (tx, { slug, id }): Promise<void> => {
  const page = await requirePage(tx, slug);
  const subscriber = await tx.store.subscribers.findById(id);
  if (!subscriber || subscriber.pageId !== page.id) throw new NotFoundError('subscriber', id);
  await tx.store.subscribers.delete(id);
});
