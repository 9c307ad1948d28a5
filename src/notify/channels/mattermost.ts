// Mattermost: an incoming webhook with one Slack-compatible attachment. Wire format:
//   POST {url}   content-type: application/json
//   { username: "Warden",
//     attachments: [{ fallback: "<emoji> <title>", color: "#rrggbb" by severity, title, title_link: page?,
//                     text: reason?, fields: [{ title, value, short: true }] (Monitor, Page as [title](url), …),
//                     footer: "<organization> · <time>" }] }
// Markdown in names and reasons is escaped and @mentions are defused, so a monitor's name cannot ping a channel.
import { footnote } from '../events/format.js';
import { CHAT_TEXT_LIMITS, chatAttachment, chatHeadline } from './attachment.js';
import type { NotificationEvent } from './channel.js';
import { defineUrlChannel } from './url-channel.js';

export const mattermostChannel = defineUrlChannel({
  type: 'mattermost',
  label: 'Mattermost',
  url: {
    name: 'Mattermost incoming webhook URL',
    help: 'The incoming webhook URL (https://chat.example.com/hooks/…; Integrations → Incoming Webhooks).',
  },
  // Mattermost rate-limits per client (10 a second by default when enabled): one at a time per webhook.
  maxInFlight: 1,
  textLimits: CHAT_TEXT_LIMITS,
  message: mattermostMessage,
});

export function mattermostMessage(event: NotificationEvent) {
  const attachment = { fallback: chatHeadline(event), ...chatAttachment(event), footer: footnote(event) };
  return { username: 'Warden', attachments: [attachment] };
}
