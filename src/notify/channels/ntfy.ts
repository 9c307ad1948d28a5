// ntfy: a message published to a topic URL. Wire format:
//   POST {url}   content-type: text/plain; charset=utf-8   authorization: Bearer {token} (when set)
//   Title: the event's title (RFC 2047 =?UTF-8?B?…?= when not ASCII, which ntfy decodes)
//   Priority: 5 critical, 4 warning, 3 info and ok   Tags: rotating_light | warning | information_source | white_check_mark
//   Click: the page URL (when there is a page)   Markdown: no
//   body: reason, the facts one per line ("Monitor: Lobby"), and "<organization> · <time>"
import { z } from 'zod';
import { pageLink } from '../events/format.js';
import { defineChannel, type NotificationEvent, type NotificationSeverity } from './channel.js';
import { endpointUrl, secretText } from './fields.js';
import { postRequest } from './http-send.js';
import { plainTextShape, type TextLimits } from './text-limits.js';

/** ntfy's title is a header: 250 characters; the body keeps Warden's text whole. */
const TEXT_LIMITS: TextLimits = { title: 250 };
const ntfyText = (event: NotificationEvent) => plainTextShape()(event, TEXT_LIMITS);

export const ntfyChannel = defineChannel({
  type: 'ntfy',
  label: 'ntfy',
  config: z
    .object({
      url: endpointUrl('ntfy topic URL')
        .refine((url) => /^https?:\/\/[^/]+\/[^/?#]+/.test(url), {
          error: 'expected the topic URL, such as https://ntfy.sh/mytopic',
        })
        .describe('The topic URL: the server and the topic, such as https://ntfy.sh/mytopic.'),
      token: secretText('access token')
        .optional()
        .describe('An access token (tk_…) for a protected topic, sent as a Bearer token.'),
    })
    .strict(),
  maxInFlight: 8,
  textLimits: TEXT_LIMITS,
  text: plainTextShape(),
  send: (event, config, ctx) => {
    const headers = { ...ntfyHeaders(event), ...(config.token ? { authorization: `Bearer ${config.token}` } : {}) };
    return postRequest({ url: config.url, headers, body: ntfyText(event).body }, ctx);
  },
});

const PRIORITY: Record<NotificationSeverity, string> = { critical: '5', warning: '4', info: '3', ok: '3' };
const TAGS: Record<NotificationSeverity, string> = {
  critical: 'rotating_light',
  warning: 'warning',
  info: 'information_source',
  ok: 'white_check_mark',
};

export function ntfyHeaders(event: NotificationEvent): Record<string, string> {
  const page = pageLink(event);
  return {
    'content-type': 'text/plain; charset=utf-8',
    title: headerText(ntfyText(event).title),
    priority: PRIORITY[event.severity],
    tags: TAGS[event.severity],
    markdown: 'no',
    ...(page ? { click: page.url } : {}),
  };
}

/** Header values are bytes: printable ASCII as is, anything else as an RFC 2047 encoded word. */
export function headerText(text: string): string {
  const oneLine = text.replace(/[\r\n]+/g, ' ');
  return /^[\x20-\x7e]*$/.test(oneLine) ? oneLine : `=?UTF-8?B?${Buffer.from(oneLine, 'utf8').toString('base64')}?=`;
}
