// Where a community's subscribed channel gets a page's news: a Discord webhook gets the Discord channel's embed, a
// Slack incoming webhook the Slack channel's blocks, each posted like those channels' (one at a time per webhook, a 429
// honoured through its Retry-After). A Discord webhook deleted by its community answers 404 Unknown Webhook: that is
// how a Discord channel unsubscribes (it has no link to follow), so the subscriber lapses and the delivery says why.
import { z } from 'zod';
import { SUBSCRIBER_LIMITS } from '../../domain/subscriber.js';
import type { Logger } from '../../logger.js';
import type { Store } from '../../store/index.js';
import { type ChannelDefinition, defineChannel } from '../channels/channel.js';
import { discordChannel } from '../channels/discord.js';
import { slackChannel } from '../channels/slack.js';

export interface CommunityDefinitions {
  discord: ChannelDefinition<{ url: string; subscriberId: string }>;
  slack: ChannelDefinition<{ url: string }>;
}

const GONE = 'Discord answered 404 Unknown Webhook: the webhook was deleted in Discord, so the channel is unsubscribed';

export function communityDefinitions(deps: { store: Store; logger?: Logger | undefined }): CommunityDefinitions {
  const discord = defineChannel({
    type: 'subscriber-discord',
    label: 'Page subscriber (Discord)',
    config: z.object({ url: z.string(), subscriberId: z.string() }),
    secrets: ['url'],
    targets: ['url'],
    maxInFlight: discordChannel.maxInFlight ?? 1,
    textLimits: discordChannel.textLimits,
    send: async (event, config, ctx) => {
      const outcome = await discordChannel.send(event, { url: config.url }, ctx);
      if (outcome.kind !== 'dead' || outcome.status !== 404 || !/10015|Unknown Webhook/.test(outcome.answer ?? ''))
        return outcome;
      // Lapsed rather than deleted: its deliveries (this one saying why) stay in the log until it expires.
      await deps.store.subscribers.lapse(config.subscriberId, ctx.now + SUBSCRIBER_LIMITS.confirmWithinMs);
      deps.logger?.warn({ subscriber: config.subscriberId }, 'a Discord subscriber deleted its webhook: unsubscribed');
      return { ...outcome, error: GONE };
    },
  });
  return { discord, slack: slackChannel };
}
