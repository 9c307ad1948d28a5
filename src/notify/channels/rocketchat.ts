// Rocket.Chat: an incoming webhook integration posting a message with one attachment. Wire format:
//   POST {url}   content-type: application/json
//   { alias: "Warden", emoji: ":bell:", text: "<emoji> <title>",
//     attachments: [{ color: "#rrggbb" by severity, title, title_link: page?, text: reason?,
//                     fields: [{ title, value, short: true }] (Monitor, Page as [title](url), …),
//                     author_name: organization, ts: ISO time of the event }] }
// Markdown in names and reasons is escaped and @mentions are defused, so a monitor's name cannot ping @all.
import { CHAT_TEXT_LIMITS, chatAttachment, chatHeadline } from './attachment.js';
import type { NotificationEvent } from './channel.js';
import { defineUrlChannel } from './url-channel.js';

export const rocketChatChannel = defineUrlChannel({
  type: 'rocketchat',
  label: 'Rocket.Chat',
  url: {
    name: 'Rocket.Chat webhook URL',
    help: 'The incoming webhook URL (https://chat.example.com/hooks/…/…; Administration → Integrations → Incoming).',
  },
  // Rocket.Chat rate-limits its API per connection: one at a time per webhook.
  maxInFlight: 1,
  textLimits: CHAT_TEXT_LIMITS,
  message: rocketChatMessage,
});

export function rocketChatMessage(event: NotificationEvent) {
  const attachment = {
    ...chatAttachment(event),
    author_name: event.organization.name,
    ts: new Date(event.at).toISOString(),
  };
  return { alias: 'Warden', emoji: ':bell:', text: chatHeadline(event), attachments: [attachment] };
}
