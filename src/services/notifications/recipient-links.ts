// What the links in mail through the system SMTP server do for its recipients: confirm an organization's alerts
// (GET /notifications/confirm?token=), and unsubscribe from them for good (/notifications/unsubscribe?token=: GET reads
// what it would do, POST does it, as a one-click mail client posts it, RFC 8058). A token names its recipient by id and
// is compared in constant time; a wrong, spent or expired one says only that it is not valid.
import { z } from 'zod';
import { type ChannelRecipient, recipientIdOf, recipientTokenMatches } from '../../domain/system-mail.js';
import { secretMatchesHash } from '../../domain/tokens.js';
import { parseInput, type ServiceContext, writeVerb } from '../context.js';

export const recipientTokenSchema = z.object({ token: z.string().max(200) });

export type RecipientLinkOutcome =
  | { outcome: 'confirmed' | 'subscribed' | 'unsubscribed'; address: string; organization: string }
  /** Not valid (any more): unknown, expired, used already, or unsubscribed already. */
  | { outcome: 'invalid' };

export const confirmRecipient = writeVerb(
  recipientTokenSchema,
  async (tx, { token }): Promise<RecipientLinkOutcome> => {
    const now = tx.clock.now();
    const recipient = await recipientOf(tx, token);
    const valid =
      recipient !== undefined &&
      recipient.confirmedAt === null &&
      recipient.unsubscribedAt === null &&
      recipient.confirmTokenHash !== null &&
      secretMatchesHash(token, recipient.confirmTokenHash) &&
      recipient.expiresAt !== null &&
      recipient.expiresAt > now;
    if (!recipient || !valid || !(await tx.store.recipients.confirm(recipient.id, now))) return { outcome: 'invalid' };
    tx.logger.info({ recipient: recipient.id }, 'channel recipient confirmed');
    return { outcome: 'confirmed', address: recipient.address, organization: await organizationName(tx, recipient) };
  },
);

/** What an unsubscribe link would do (GET): whom it unsubscribes from which organization, or that it is not valid. */
export async function readRecipientUnsubscribe(
  ctx: ServiceContext,
  input: z.input<typeof recipientTokenSchema>,
): Promise<RecipientLinkOutcome> {
  const { token } = parseInput(recipientTokenSchema, input);
  const recipient = await recipientOf(ctx, token);
  if (!recipient || recipient.unsubscribedAt !== null || !recipientTokenMatches(token, recipient.unsubscribeToken))
    return { outcome: 'invalid' };
  return { outcome: 'subscribed', address: recipient.address, organization: await organizationName(ctx, recipient) };
}

/** Unsubscribes (POST): the organization's channels never mail nor ask this address again. */
export const unsubscribeRecipient = writeVerb(
  recipientTokenSchema,
  async (tx, { token }): Promise<RecipientLinkOutcome> => {
    const now = tx.clock.now();
    const recipient = await recipientOf(tx, token);
    if (
      !recipient ||
      !recipientTokenMatches(token, recipient.unsubscribeToken) ||
      !(await tx.store.recipients.unsubscribe(recipient.id, now))
    )
      return { outcome: 'invalid' };
    tx.logger.info({ recipient: recipient.id }, 'channel recipient unsubscribed');
    return { outcome: 'unsubscribed', address: recipient.address, organization: await organizationName(tx, recipient) };
  },
);

async function recipientOf(ctx: ServiceContext, token: string): Promise<ChannelRecipient | undefined> {
  const id = recipientIdOf(token);
  return id ? ctx.store.recipients.findById(id) : undefined;
}

async function organizationName(ctx: ServiceContext, recipient: ChannelRecipient): Promise<string> {
  return (await ctx.store.organizations.list()).find((o) => o.id === recipient.organizationId)?.name ?? '';
}
