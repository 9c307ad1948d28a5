// Gotify: a message from an application on your own Gotify server. Wire format:
//   POST {url}/message   content-type: application/json   x-gotify-key: {token}
//   { title: "Lobby is down", message: markdown (reason, "- **Monitor:** Lobby", "- **Page:** [Acme status](…)",
//     "_<organization> · <time>_"), priority: 8 critical, 6 warning, 4 info and ok,
//     extras: { "client::display": { contentType: "text/markdown" },
//               "client::notification": { click: { url: the page } } (when there is a page) } }
// A refusal keeps Gotify's errorDescription in the error; the token goes in the header, never in the URL.
import { z } from 'zod';
import { eventFacts, footnote, pageLink, REASON_CHARS } from '../events/format.js';
import { defineChannel, type NotificationEvent, type NotificationSeverity } from './channel.js';
import { endpointUrl, secretText } from './fields.js';
import { postRequest } from './http-send.js';
import { withReason } from './receiver-reason.js';
import { reasonText, type TextLimits } from './text-limits.js';

const TEXT_LIMITS: TextLimits = { body: REASON_CHARS };

export const gotifyChannel = defineChannel({
  type: 'gotify',
  label: 'Gotify',
  config: z
    .object({
      url: endpointUrl('Gotify server URL').describe(
        'The Gotify server, with its path when it is served under one: https://push.example.com or https://example.com/gotify.',
      ),
      token: secretText('application token').describe("An application's token (Apps → Create Application)."),
    })
    .strict(),
  // One's own server: like ntfy and webhooks.
  maxInFlight: 8,
  textLimits: TEXT_LIMITS,
  send: async (event, config, ctx) => {
    const url = `${config.url.replace(/\/+$/, '')}/message`;
    const outcome = await postRequest(
      { url, headers: { 'x-gotify-key': config.token }, body: gotifyMessage(event) },
      ctx,
    );
    return withReason(outcome, (answer) =>
      typeof answer.errorDescription === 'string' ? answer.errorDescription : undefined,
    );
  },
});

/** Gotify's Android app: 8 and up sound and pop up, 4 to 7 sound, 1 to 3 only show, 0 stays silent. */
const PRIORITY: Record<NotificationSeverity, number> = { critical: 8, warning: 6, info: 4, ok: 4 };

export function gotifyMessage(event: NotificationEvent) {
  const page = pageLink(event);
  return {
    title: reasonText(event, TEXT_LIMITS).title,
    message: gotifyMarkdown(event),
    priority: PRIORITY[event.severity],
    extras: {
      'client::display': { contentType: 'text/markdown' },
      ...(page ? { 'client::notification': { click: { url: page.url } } } : {}),
    },
  };
}

export function gotifyMarkdown(event: NotificationEvent): string {
  const blocks: string[] = [];
  const { body } = reasonText(event, TEXT_LIMITS);
  if (body) blocks.push(escapeMarkdown(body));
  const facts = eventFacts(event).map(
    (fact) =>
      `- **${escapeMarkdown(fact.name)}:** ${fact.url ? `[${escapeMarkdown(fact.value)}](${linkTarget(fact.url)})` : escapeMarkdown(fact.value)}`,
  );
  if (facts.length > 0) blocks.push(facts.join('\n'));
  blocks.push(`_${escapeMarkdown(footnote(event))}_`);
  return blocks.join('\n\n');
}

/** A backslash before the characters that would start emphasis, a link, code, HTML or a table in a name. */
export function escapeMarkdown(text: string): string {
  return text.replace(/[\\`*_[\]<>|~#]/g, '\\$&');
}

/** A link target in angle brackets holds any URL but one with a space, bracket or line break, which are encoded. */
function linkTarget(url: string): string {
  return `<${url.replace(/[\s<>]/g, encodeURIComponent)}>`;
}
