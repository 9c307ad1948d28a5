// Discord: an execute-webhook call with one embed. Wire format:
//   POST {url}   content-type: application/json
//   { username: "Warden", allowed_mentions: { parse: [] },
//     embeds: [{ title, description: reason?, url: page?, color: red/green/orange/blue by severity,
//                fields: [{ name, value, inline: true }] (Monitor, Page as [title](url), Downtime, Players…),
//                footer: { text: organization }, timestamp: ISO time of the event }] }
import { clip, escapeMarkdown, eventFacts, pageLink, REASON_CHARS, SEVERITY_LOOK } from '../events/format.js';
import type { NotificationEvent } from './channel.js';
import { reasonText } from './text-limits.js';
import { defineUrlChannel } from './url-channel.js';

export const discordChannel = defineUrlChannel({
  type: 'discord',
  label: 'Discord',
  url: { name: 'Discord webhook URL', help: 'The channel webhook URL (Server settings → Integrations → Webhooks).' },
  // Discord allows a webhook about 5 requests per 2 s: one at a time (a 429 pauses the channel).
  maxInFlight: 1,
  textLimits: { title: 256, body: REASON_CHARS },
  message: discordMessage,
});

/** Discord's limits on an embed's parts (a description holds 4096: the reason, escaped, stays well under). */
const LIMITS = { fieldName: 256, fieldValue: 1024, fields: 25 };

export function discordMessage(event: NotificationEvent) {
  const page = pageLink(event);
  const fields = eventFacts(event)
    .slice(0, LIMITS.fields)
    .map((fact) => ({
      name: clip(fact.name, LIMITS.fieldName),
      value: clip(
        fact.url ? `[${escapeMarkdown(fact.value)}](${fact.url})` : escapeMarkdown(fact.value),
        LIMITS.fieldValue,
      ),
      inline: true,
    }));
  const text = reasonText(event, discordChannel.textLimits);
  const embed = {
    title: text.title,
    ...(text.body ? { description: escapeMarkdown(text.body) } : {}),
    ...(page ? { url: page.url } : {}),
    color: SEVERITY_LOOK[event.severity].colour,
    fields,
    footer: { text: event.organization.name },
    timestamp: new Date(event.at).toISOString(),
  };
  return { username: 'Warden', allowed_mentions: { parse: [] }, embeds: [embed] };
}
