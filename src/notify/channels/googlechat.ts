// Google Chat: a space's incoming webhook posting a card, threaded by the event's story. Wire format:
//   POST {url}&messageReplyOption=REPLY_MESSAGE_FALLBACK_TO_NEW_THREAD&requestId={event id}
//        content-type: application/json
//   { fallbackText: "<emoji> <title>",
//     cardsV2: [{ cardId: "warden", card: {
//       header: { title: "<emoji> <title>", subtitle: organization },
//       sections: [{ widgets: [ textParagraph reason?, decoratedText { topLabel: fact, text } …,
//                               buttonList [{ text: "Open <page>", onClick: { openLink: { url } } }] (with a page),
//                               textParagraph "<organization> · <time>" in grey ] }] } }],
//     thread: { threadKey: episodeKey(event) } }
// The thread key is the same for a monitor's down, its reminders and its recovery (and for an incident's updates), so
// they stack in one thread; requestId makes a retried send return the message already created instead of a second.
import { clip, eventFacts, footnote, pageLink, REASON_CHARS, SEVERITY_LOOK } from '../events/format.js';
import type { NotificationEvent } from './channel.js';
import { episodeKey } from './episode.js';
import { escapeHtml } from './telegram.js';
import { reasonText } from './text-limits.js';
import { defineUrlChannel } from './url-channel.js';

const URL_HELP = "The space's webhook URL (Apps & integrations → Webhooks: https://chat.googleapis.com/v1/spaces/…).";

export const googleChatChannel = defineUrlChannel({
  type: 'googlechat',
  label: 'Google Chat',
  url: { name: 'Google Chat webhook URL', help: URL_HELP },
  // Google Chat takes about one message a second per space: one at a time.
  maxInFlight: 1,
  // A card header holds 200 characters: the title's, after the emoji and a space.
  textLimits: { title: 198, body: REASON_CHARS },
  message: googleChatMessage,
  address: googleChatUrl,
});

/** The webhook URL (its key and token kept) with the reply option and the event's id as the request id. */
export function googleChatUrl(url: string, event: NotificationEvent): string {
  const address = new URL(url);
  address.searchParams.set('messageReplyOption', 'REPLY_MESSAGE_FALLBACK_TO_NEW_THREAD');
  address.searchParams.set('requestId', event.id);
  return address.toString();
}

/** The limit of a fact's text on a card. */
const FACT_CHARS = 2000;

export function googleChatMessage(event: NotificationEvent) {
  const text = reasonText(event, googleChatChannel.textLimits);
  const heading = `${SEVERITY_LOOK[event.severity].emoji} ${text.title}`;
  const page = pageLink(event);
  const widgets: unknown[] = [];
  if (text.body) widgets.push({ textParagraph: { text: escapeHtml(text.body) } });
  for (const fact of eventFacts(event)) {
    const value = clip(fact.value, FACT_CHARS);
    const text = fact.url ? `<a href="${escapeHtml(fact.url)}">${escapeHtml(value)}</a>` : escapeHtml(value);
    widgets.push({ decoratedText: { topLabel: fact.name, text } });
  }
  if (page)
    widgets.push({
      buttonList: { buttons: [{ text: clip(`Open ${page.title}`, 100), onClick: { openLink: { url: page.url } } }] },
    });
  widgets.push({ textParagraph: { text: `<font color="#6b7280">${escapeHtml(footnote(event))}</font>` } });
  const card = { header: { title: heading, subtitle: event.organization.name }, sections: [{ widgets }] };
  return {
    fallbackText: heading,
    cardsV2: [{ cardId: 'warden', card }],
    thread: { threadKey: episodeKey(event) },
  };
}
