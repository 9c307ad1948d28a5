// Every notification channel, keyed by type; a type in CHANNEL_TYPES missing here (or one here not listed) fails to compile.
import type { ChannelDefinition } from './channel.js';
import { discordChannel } from './discord.js';
import { emailChannel } from './email.js';
import { googleChatChannel } from './googlechat.js';
import { gotifyChannel } from './gotify.js';
import { matrixChannel } from './matrix.js';
import { mattermostChannel } from './mattermost.js';
import { ntfyChannel } from './ntfy.js';
import { opsgenieChannel } from './opsgenie.js';
import { pagerdutyChannel } from './pagerduty.js';
import { pushoverChannel } from './pushover.js';
import { rocketChatChannel } from './rocketchat.js';
import { slackChannel } from './slack.js';
import { teamsChannel } from './teams.js';
import { telegramChannel } from './telegram.js';
import { twilioChannel } from './twilio.js';
import { webhookChannel } from './webhook.js';

export const CHANNEL_TYPES = [
  'webhook',
  'discord',
  'slack',
  'teams',
  'telegram',
  'ntfy',
  'email',
  'pushover',
  'gotify',
  'matrix',
  'pagerduty',
  'opsgenie',
  'twilio',
  'mattermost',
  'rocketchat',
  'googlechat',
] as const;

export type ChannelType = (typeof CHANNEL_TYPES)[number];

export const CHANNELS = {
  webhook: webhookChannel,
  discord: discordChannel,
  slack: slackChannel,
  teams: teamsChannel,
  telegram: telegramChannel,
  ntfy: ntfyChannel,
  email: emailChannel,
  pushover: pushoverChannel,
  gotify: gotifyChannel,
  matrix: matrixChannel,
  pagerduty: pagerdutyChannel,
  opsgenie: opsgenieChannel,
  twilio: twilioChannel,
  mattermost: mattermostChannel,
  rocketchat: rocketChatChannel,
  googlechat: googleChatChannel,
  // biome-ignore lint/suspicious/noExplicitAny: each entry keeps its own config type; callers go through channelDefinition().
} satisfies Record<ChannelType, ChannelDefinition<any>>;

export function channelDefinition(type: ChannelType): ChannelDefinition {
  return CHANNELS[type] as unknown as ChannelDefinition;
}
