// A channel reached through one webhook URL that is its own credential (Discord, Slack, Teams): the message built from
// the event, posted as JSON through postRequest (the guarded POST) and classified there.
import { z } from 'zod';
import { type ChannelDefinition, defineChannel, type NotificationEvent } from './channel.js';
import { endpointUrl } from './fields.js';
import { postRequest } from './http-send.js';
import type { TextLimits } from './text-limits.js';

export interface UrlChannelDeclaration {
  type: string;
  label: string;
  /** The URL field's name in error messages, and its help text. */
  url: { name: string; help: string };
  /** Sends in flight at once to one such URL (the receiver's rate limit per webhook). */
  maxInFlight: number;
  /** The most characters of the title and the reason it sends (its text is the title and the reason). */
  textLimits: TextLimits;
  message(event: NotificationEvent): unknown;
  /** The address posted to, when the event adds to the configured URL (Google Chat's request id). */
  address?(url: string, event: NotificationEvent): string;
}

export function defineUrlChannel(declaration: UrlChannelDeclaration): ChannelDefinition<{ url: string }> {
  const { url, message, address, ...rest } = declaration;
  return defineChannel({
    ...rest,
    config: z.object({ url: endpointUrl(url.name).describe(url.help) }).strict(),
    secrets: ['url'],
    send: (event, config, ctx) =>
      postRequest({ url: address ? address(config.url, event) : config.url, body: message(event) }, ctx),
  });
}
