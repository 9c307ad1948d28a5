// Reads the organization's notification channels (as the caller's role may see them) and their deliveries; another organization's is "not found".
import type { z } from 'zod';
import { NotFoundError } from '../../domain/errors.js';
import type { NotificationChannel } from '../../domain/notification.js';
import { organizationOf, parseInput, readVerb, type ServiceContext } from '../context.js';
import { callerRole } from '../organizations/current.js';
import { channelKeySchema, deliveriesInput } from './schema.js';
import { type ChannelView, channelView, type DeliveryView, deliveryView } from './view.js';

export async function listChannels(ctx: ServiceContext): Promise<ChannelView[]> {
  const role = callerRole(ctx);
  return (await ctx.store.channels.list(organizationOf(ctx))).map((channel) => channelView(channel, role));
}

export async function getChannel(ctx: ServiceContext, input: z.input<typeof channelKeySchema>): Promise<ChannelView> {
  return channelView(await requireChannel(ctx, parseInput(channelKeySchema, input).key), callerRole(ctx));
}

/** A channel's deliveries, newest first: the outbox's and the tests'. */
export const listDeliveries = readVerb(deliveriesInput, async (ctx, { key, limit }): Promise<DeliveryView[]> => {
  const channel = await requireChannel(ctx, key);
  return (await ctx.store.deliveries.listByChannel(channel.id, limit)).map(deliveryView);
});

/** The organization's channel by key, or by id (a key wins a tie: channels are addressed by key first). */
export async function requireChannel(ctx: ServiceContext, key: string): Promise<NotificationChannel> {
  const organizationId = organizationOf(ctx);
  const byKey = await ctx.store.channels.findByKey(organizationId, key);
  const channel = byKey ?? (await ctx.store.channels.findById(key));
  if (!channel || channel.organizationId !== organizationId) throw new NotFoundError('notification channel', key);
  return channel;
}
