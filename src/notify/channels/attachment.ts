// A Slack-compatible message attachment, as Mattermost and Rocket.Chat incoming webhooks take it: a colour bar by
// severity, the title linking the first page, the reason, and the facts as short fields. Names and reasons are shown
// as themselves: Markdown escaped and @mentions defused, so a monitor called "@channel" pings no one.
import { clip, escapeMarkdown, eventFacts, pageLink, REASON_CHARS, SEVERITY_LOOK } from '../events/format.js';
import type { NotificationEvent } from './channel.js';
import { reasonText, type TextLimits } from './text-limits.js';

export interface ChatAttachment {
  color: string;
  title: string;
  title_link?: string;
  text?: string;
  fields: { title: string; value: string; short: true }[];
}

/** Limits both receivers keep well within (Mattermost's post is at most 16,383 characters). */
const LIMITS = { fieldValue: 1024, fields: 20 };

/** The attachment's title and text (the reason). */
export const CHAT_TEXT_LIMITS: TextLimits = { title: 256, body: REASON_CHARS };

export function chatAttachment(event: NotificationEvent): ChatAttachment {
  const page = pageLink(event);
  const text = reasonText(event, CHAT_TEXT_LIMITS);
  const fields = eventFacts(event)
    .slice(0, LIMITS.fields)
    .map((fact) => ({
      title: fact.name,
      value: clip(fact.url ? `[${chatText(fact.value)}](${fact.url})` : chatText(fact.value), LIMITS.fieldValue),
      short: true as const,
    }));
  return {
    color: hexColour(event),
    title: text.title,
    ...(page ? { title_link: page.url } : {}),
    ...(text.body ? { text: chatText(text.body) } : {}),
    fields,
  };
}

/** The first line a notification shows: the severity's emoji and the title, as Markdown text. */
export function chatHeadline(event: NotificationEvent): string {
  return `${SEVERITY_LOOK[event.severity].emoji} ${chatText(reasonText(event, CHAT_TEXT_LIMITS).title)}`;
}

/** The severity's colour as #rrggbb. */
export function hexColour(event: NotificationEvent): string {
  return `#${SEVERITY_LOOK[event.severity].colour.toString(16).padStart(6, '0')}`;
}

/**
 * Markdown shown as itself, and @mentions (@channel, @all, @here, @someone) broken by a zero-width space; an @ inside
 * a word (ops@example.com) mentions no one and stays as it is.
 */
export function chatText(text: string): string {
  return escapeMarkdown(text).replace(/(^|[^\w])@(?=\w)/g, '$1@\u200b');
}
