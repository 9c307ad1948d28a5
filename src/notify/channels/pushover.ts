// Pushover: a push message from an application to a user or group. Wire format:
//   POST {apiBaseUrl}/1/messages.json   content-type: application/json
//   { token, user, title: "Lobby is down", message: reason, facts one per line and "<organization> · <time>",
//     priority: 1 critical (high: sounds through quiet hours), 0 otherwise, timestamp: the event's time (s),
//     url: the page, url_title: "Open <page>" (when there is a page) }
// A refusal's `errors` ("user identifier is invalid") is kept in the error; the token never leaves the body.
import { z } from 'zod';
import { clip, pageLink } from '../events/format.js';
import { defineChannel, type NotificationEvent, type NotificationSeverity } from './channel.js';
import { endpointUrl } from './fields.js';
import { postRequest } from './http-send.js';
import { withReason } from './receiver-reason.js';
import { plainTextShape, type TextLimits } from './text-limits.js';

/** Pushover's limits: a title of 250 characters, a message of 1024. */
const TEXT_LIMITS: TextLimits = { title: 250, body: 1024 };
const pushoverText = plainTextShape();

const KEY = /^[A-Za-z0-9]{30}$/;

export const pushoverChannel = defineChannel({
  type: 'pushover',
  label: 'Pushover',
  config: z
    .object({
      token: z
        .string({ error: 'expected the application API token as a string' })
        .regex(KEY, { error: 'expected an application API token: 30 letters and digits' })
        .describe("The application's API token (Your Applications → Create an Application/API Token)."),
      user: z
        .string({ error: 'expected the user or group key as a string' })
        .regex(KEY, { error: 'expected a user or group key: 30 letters and digits' })
        .describe('The user key (top right of the dashboard) or a group key: who gets the messages.'),
      apiBaseUrl: endpointUrl('Pushover API base URL').default('https://api.pushover.net'),
    })
    .strict(),
  secrets: ['token', 'user'],
  targets: ['apiBaseUrl', 'user'],
  // Pushover asks for no more than two concurrent connections per application.
  maxInFlight: 2,
  textLimits: TEXT_LIMITS,
  text: pushoverText,
  send: async (event, config, ctx) => {
    const url = `${config.apiBaseUrl.replace(/\/+$/, '')}/1/messages.json`;
    const outcome = await postRequest({ url, body: pushoverMessage(event, config) }, ctx);
    return withReason(outcome, (answer) =>
      Array.isArray(answer.errors) ? answer.errors.filter((e) => typeof e === 'string').join('; ') : undefined,
    );
  },
});

/** Pushover's limits on the supplementary URL and its title. */
const LIMITS = { url: 512, urlTitle: 100 };

const PRIORITY: Record<NotificationSeverity, number> = { critical: 1, warning: 0, info: 0, ok: 0 };

export function pushoverMessage(event: NotificationEvent, keys: { token: string; user: string }) {
  const page = pageLink(event);
  const text = pushoverText(event, TEXT_LIMITS);
  return {
    token: keys.token,
    user: keys.user,
    title: text.title,
    message: text.body,
    priority: PRIORITY[event.severity],
    timestamp: Math.floor(event.at / 1000),
    ...(page && page.url.length <= LIMITS.url
      ? { url: page.url, url_title: clip(`Open ${page.title}`, LIMITS.urlTitle) }
      : {}),
  };
}
