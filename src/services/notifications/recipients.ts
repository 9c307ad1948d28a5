// The recipients of an email channel on the system SMTP server as its organization sees them: whether they must confirm
// (WARDEN_SMTP_TENANTS), and where each address stands. Never a token.
import { z } from 'zod';
import { recipientState } from '../../domain/system-mail.js';
import { usesSystemSmtp } from '../../notify/channels/email.js';
import { addressesOf } from '../../notify/mail/system-mail.js';
import { organizationOf, parseInput, type ServiceContext } from '../context.js';
import { requireChannel } from './read.js';
import { channelKeySchema } from './schema.js';

export const channelRecipientsSchema = z.object({
  confirmation: z
    .enum(['required', 'not-required', 'refused', 'not-applicable'])
    .describe(
      'required: only recipients who confirmed get mail; not-required: every recipient does (a channel the operator trusts); refused: the server lets this channel not use its SMTP server (WARDEN_SMTP_TENANTS=deny); not-applicable: not an email channel on the system SMTP server.',
    ),
  recipients: z.array(
    z.object({
      address: z.string(),
      state: z
        .enum(['confirmed', 'pending', 'unasked', 'unsubscribed'])
        .describe(
          'pending: a confirmation link was mailed and works still; unasked: none yet (or it expired): the next send mails one; unsubscribed: never mailed again.',
        ),
    }),
  ),
});

export type ChannelRecipientsView = z.infer<typeof channelRecipientsSchema>;

export async function listChannelRecipients(
  ctx: ServiceContext,
  input: z.input<typeof channelKeySchema>,
): Promise<ChannelRecipientsView> {
  const channel = await requireChannel(ctx, parseInput(channelKeySchema, input).key);
  if (!usesSystemSmtp(channel.type, channel.config) || !ctx.systemMail)
    return { confirmation: 'not-applicable', recipients: [] };
  const policy = await ctx.systemMail.policyOf(channel, ctx.store);
  const addresses = addressesOf(channel.config);
  if (policy !== 'confirm') return { confirmation: policy === 'trusted' ? 'not-required' : 'refused', recipients: [] };
  const rows = new Map(
    (await ctx.store.recipients.findByAddresses(organizationOf(ctx), addresses)).map((row) => [row.address, row]),
  );
  const now = ctx.clock.now();
  return {
    confirmation: 'required',
    recipients: addresses.map((address) => ({ address, state: recipientState(rows.get(address), now) })),
  };
}
