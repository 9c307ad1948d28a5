// Slack: an incoming webhook with Block Kit blocks and a plain `text` fallback (notifications, old clients). Wire format:
//   POST {url}   content-type: application/json
//   { text: "<emoji> <title>",
//     blocks: [ { type: header, text: plain_text "<emoji> <title>" },
//               { type: section, text: mrkdwn reason?, fields: [mrkdwn "*Monitor*\nLobby", …] },
//               { type: actions, elements: [{ type: button, text: "Open <page>", url }] } (when there is a page),
//               { type: context, elements: [mrkdwn "<organization> · <time>"] } ] }
import { clip, eventFacts, footnote, pageLink, REASON_CHARS, SEVERITY_LOOK } from '../events/format.js';
import type { NotificationEvent } from './channel.js';
import { reasonText } from './text-limits.js';
import { defineUrlChannel } from './url-channel.js';

export const slackChannel = defineUrlChannel({
  type: 'slack',
  label: 'Slack',
  url: { name: 'Slack incoming webhook URL', help: 'The incoming webhook URL (https://hooks.slack.com/services/…).' },
  // Slack: about one message a second per incoming webhook.
  maxInFlight: 1,
  // A header holds 150 characters: the title's, after the emoji and a space.
  textLimits: { title: 148, body: REASON_CHARS },
  message: slackMessage,
});

/** Slack's limits: a section field, the fields of a section, a button's label. */
const LIMITS = { field: 2000, fields: 10, button: 75 };

export function slackMessage(event: NotificationEvent) {
  const text = reasonText(event, slackChannel.textLimits);
  const heading = `${SEVERITY_LOOK[event.severity].emoji} ${text.title}`;
  const page = pageLink(event);
  const fields = eventFacts(event)
    .slice(0, LIMITS.fields)
    .map((fact) => ({
      type: 'mrkdwn',
      text: clip(
        `*${fact.name}*\n${fact.url ? `<${fact.url}|${escapeMrkdwn(fact.value)}>` : escapeMrkdwn(fact.value)}`,
        LIMITS.field,
      ),
    }));
  const section = {
    type: 'section',
    ...(text.body ? { text: { type: 'mrkdwn', text: escapeMrkdwn(text.body) } } : {}),
    ...(fields.length > 0 ? { fields } : {}),
  };
  const blocks: unknown[] = [{ type: 'header', text: { type: 'plain_text', text: heading, emoji: true } }];
  if (text.body || fields.length > 0) blocks.push(section);
  if (page) {
    const label = clip(`Open ${page.title}`, LIMITS.button);
    blocks.push({
      type: 'actions',
      elements: [{ type: 'button', text: { type: 'plain_text', text: label }, url: page.url }],
    });
  }
  blocks.push({ type: 'context', elements: [{ type: 'mrkdwn', text: escapeMrkdwn(footnote(event)) }] });
  return { text: escapeMrkdwn(heading), blocks };
}

/** The three characters Slack's mrkdwn wants escaped, so a name cannot link or mention. */
function escapeMrkdwn(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}
