// Matrix: an m.room.message in one room, sent as a user (a bot account's access token). Wire format:
//   PUT {homeserverUrl}/_matrix/client/v3/rooms/{roomId}/send/m.room.message/warden-{event id}
//   authorization: Bearer {accessToken}   content-type: application/json
//   { msgtype: "m.text", body: "<emoji> title\nreason\n\nMonitor: Lobby\n…",
//     format: "org.matrix.custom.html", formatted_body: "<p><b>emoji title</b></p><p>reason</p><ul><li>…</li></ul>…",
//     "m.mentions": {} }
// The transaction id comes from the event's id, so a retry after a lost answer is the same transaction: the homeserver
// answers with the first send's event id instead of posting twice. A 429's retry_after_ms is honoured (the later of it
// and Retry-After); a refusal keeps the errcode and error in the log.
import { z } from 'zod';
import { eventFacts, footnote, plainText, REASON_CHARS, SEVERITY_LOOK } from '../events/format.js';
import { defineChannel, type NotificationEvent } from './channel.js';
import { endpointUrl, secretText } from './fields.js';
import { postRequest } from './http-send.js';
import { withBodyRetryAfter, withReason } from './receiver-reason.js';
import { escapeHtml } from './telegram.js';
import { reasonText, type TextLimits } from './text-limits.js';

const TEXT_LIMITS: TextLimits = { body: REASON_CHARS };

const ROOM_MESSAGE = 'expected a room id such as !abcdefg:example.org (Room settings → Advanced), not a #room:alias';

export const matrixChannel = defineChannel({
  type: 'matrix',
  label: 'Matrix',
  config: z
    .object({
      homeserverUrl: endpointUrl('Matrix homeserver URL').describe(
        "The homeserver's client-server API, such as https://matrix.example.org (as .well-known/matrix/client names it).",
      ),
      accessToken: secretText('access token').describe(
        'The access token of the account that posts (a bot user in the room).',
      ),
      roomId: z
        .string({ error: ROOM_MESSAGE })
        .trim()
        .regex(/^![\x21-\x7e]{1,254}$/, { error: ROOM_MESSAGE })
        .describe('The room the account posts to, by id: !abcdefg:example.org.'),
    })
    .strict(),
  secrets: ['accessToken'],
  targets: ['homeserverUrl', 'roomId'],
  // Homeservers rate-limit messages per user; one at a time also keeps the room's messages in order.
  maxInFlight: 1,
  textLimits: TEXT_LIMITS,
  send: async (event, config, ctx) => {
    const room = encodeURIComponent(config.roomId);
    const url = `${config.homeserverUrl.replace(/\/+$/, '')}/_matrix/client/v3/rooms/${room}/send/m.room.message/${matrixTxnId(event)}`;
    const headers = { authorization: `Bearer ${config.accessToken}` };
    const outcome = await postRequest({ url, method: 'PUT', headers, body: matrixMessage(event) }, ctx);
    return withReason(
      withBodyRetryAfter(outcome, (answer) => answer.retry_after_ms),
      (answer) => [answer.errcode, answer.error].filter((part) => typeof part === 'string').join(': ') || undefined,
    );
  },
});

/** The transaction id: the event's, so every attempt to send one event is one transaction for the homeserver. */
export function matrixTxnId(event: NotificationEvent): string {
  return encodeURIComponent(`warden-${event.id}`);
}

export function matrixMessage(event: NotificationEvent) {
  const emoji = SEVERITY_LOOK[event.severity].emoji;
  return {
    msgtype: 'm.text',
    body: `${emoji} ${plainText(event)}`,
    format: 'org.matrix.custom.html',
    formatted_body: matrixHtml(event),
    // Nobody is mentioned: a name that reads "@room" pings no one.
    'm.mentions': {},
  };
}

export function matrixHtml(event: NotificationEvent): string {
  const text = reasonText(event, TEXT_LIMITS);
  const parts = [`<p><b>${SEVERITY_LOOK[event.severity].emoji} ${escapeHtml(text.title)}</b></p>`];
  if (text.body) parts.push(`<p>${escapeHtml(text.body).replace(/\n/g, '<br>')}</p>`);
  const facts = eventFacts(event).map(
    (fact) =>
      `<li><b>${escapeHtml(fact.name)}:</b> ${fact.url ? `<a href="${escapeHtml(fact.url)}">${escapeHtml(fact.value)}</a>` : escapeHtml(fact.value)}</li>`,
  );
  if (facts.length > 0) parts.push(`<ul>${facts.join('')}</ul>`);
  parts.push(`<p><i>${escapeHtml(footnote(event))}</i></p>`);
  return parts.join('');
}
