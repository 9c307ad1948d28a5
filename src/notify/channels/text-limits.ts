// A channel's text limits, declared once on its definition (`textLimits`): the most characters of the title and the
// body it sends. Its send path builds the message from its `text` shape under those limits, and the template preview
// (services/notifications/preview-template.ts) calls the same shape with the same limits, so the two cannot drift.
import { clip, plainText, REASON_CHARS } from '../events/format.js';
import type { NotificationEvent } from './channel.js';

/** The most characters of each part as the channel sends it, cut with an ellipsis; absent: no cut of its own. */
export interface TextLimits {
  title?: number;
  body?: number;
}

/** The title and body a channel sends for an event, and whether each was cut to fit. */
export interface ChannelText {
  title: string;
  body: string;
  clipped: { title: boolean; body: boolean };
}

/** How a channel makes its title and body out of an event, under limits. */
export type TextShape = (event: NotificationEvent, limits: TextLimits) => ChannelText;

/** `text` cut to `max` characters (none: whole), and whether it was. */
export function cut(text: string, max: number | undefined): { text: string; clipped: boolean } {
  const kept = max === undefined ? text : clip(text, max);
  return { text: kept, clipped: kept !== text };
}

/** The title, and the reason alone as the body: the channel shows the facts in fields of its own (chat, cards). */
export const reasonText: TextShape = (event, limits) => {
  const title = cut(event.title, limits.title);
  const body = cut(event.reason ?? '', limits.body);
  return { title: title.text, body: body.text, clipped: { title: title.clipped, body: body.clipped } };
};

/**
 * The title, and the whole text as plain lines for the body: the reason (at most REASON_CHARS, as everywhere), the
 * facts and the small print, then cut to the body's limit (push and topic channels). `withTitle`: the body starts
 * with the title too (an alert's description, a mail's text).
 */
export function plainTextShape(withTitle = false): TextShape {
  return (event, limits) => {
    const title = cut(event.title, limits.title);
    const reason = cut(event.reason ?? '', REASON_CHARS);
    const body = cut(plainText(event, { title: withTitle }), limits.body);
    return {
      title: title.text,
      body: body.text,
      clipped: { title: title.clipped, body: reason.clipped || body.clipped },
    };
  };
}
