// Each channel's declared text limits are what its send path cuts to, and what the template preview shows.
import { describe, expect, it } from 'vitest';
import { DOWN_EVENT } from '../../../test/fakes/notify-receivers.js';
import { SEVERITY_LOOK } from '../events/format.js';
import type { NotificationEvent } from './channel.js';
import { discordMessage } from './discord.js';
import { googleChatMessage } from './googlechat.js';
import { opsgenieAlert } from './opsgenie.js';
import { pushoverMessage } from './pushover.js';
import { CHANNEL_TYPES, channelDefinition } from './registry.js';
import { slackMessage } from './slack.js';
import { smsText } from './twilio.js';

const LONG: NotificationEvent = { ...DOWN_EVENT, title: 'T'.repeat(2000), reason: 'r'.repeat(20_000) };
const length = (text: string) => Array.from(text).length;

describe('channel text limits', () => {
  it.each(CHANNEL_TYPES)('%s: its text stays within its limits, and says when it was cut', (type) => {
    const channel = channelDefinition(type);
    const text = channel.text(LONG, channel.textLimits);
    const { title, body } = channel.textLimits;
    if (title !== undefined) expect(length(text.title)).toBeLessThanOrEqual(title);
    if (body !== undefined) expect(length(text.body)).toBeLessThanOrEqual(body);
    expect(text.clipped.title).toBe(title !== undefined);
    // Without a limit of its own a body may still be cut: the reason is at most REASON_CHARS in Warden's plain text.
    if (body !== undefined) expect(text.clipped.body).toBe(true);
    const short = channel.text(DOWN_EVENT, channel.textLimits);
    expect(short.clipped).toEqual({ title: false, body: false });
  });

  it('the send paths cut to the same limits the preview shows', () => {
    const text = (type: Parameters<typeof channelDefinition>[0]) => {
      const channel = channelDefinition(type);
      return channel.text(LONG, channel.textLimits);
    };
    const emoji = SEVERITY_LOOK[LONG.severity].emoji;
    const pushover = pushoverMessage(LONG, { token: 't', user: 'u' });
    expect({ title: pushover.title, body: pushover.message }).toEqual({
      title: text('pushover').title,
      body: text('pushover').body,
    });
    expect(discordMessage(LONG).embeds[0]!.title).toBe(text('discord').title);
    expect(opsgenieAlert(LONG).message).toBe(text('opsgenie').title);
    expect(opsgenieAlert(LONG).description).toBe(text('opsgenie').body);
    expect(smsText(LONG)).toBe(text('twilio').body);
    expect((slackMessage(LONG).blocks[0] as { text: { text: string } }).text.text).toBe(
      `${emoji} ${text('slack').title}`,
    );
    expect(googleChatMessage(LONG).cardsV2[0]!.card.header.title).toBe(`${emoji} ${text('googlechat').title}`);
  });
});
