// SMS through Twilio's Messages API. Wire format:
//   POST {apiUrl}/2010-04-01/Accounts/{accountSid}/Messages.json
//   authorization: Basic base64(accountSid:authToken)   content-type: application/x-www-form-urlencoded
//   To=<E.164>&From=<E.164> (or MessagingServiceSid=MG…)&Body=<text>
//   Body: "[Acme Games] Lobby is down: connection refused … https://status.acme.test/main", at most 306 characters
//   (two concatenated GSM-7 segments): the title and reason are cut to make room for the page link.
// 201 is sent; 429 and 5xx retry; other 4xx (a bad number, an unverified sender) are dead with Twilio's answer. The API
// has no idempotency key: a reply lost after Twilio accepted the message means a retry sends it twice.
import { z } from 'zod';
import { pageLink } from '../events/format.js';
import { defineChannel, type NotificationEvent } from './channel.js';
import { endpointUrl, secretText } from './fields.js';
import { postRequest } from './http-send.js';
import type { ChannelText, TextLimits } from './text-limits.js';

/** Two concatenated GSM-7 segments (153 characters each): longer messages cost more and arrive in pieces. */
export const SMS_CHARS = 306;
/** An SMS has no title: the organization, title, reason and link are one body of SMS_CHARS. */
const TEXT_LIMITS: TextLimits = { body: SMS_CHARS };

const SID_MESSAGE = 'expected the Account SID: AC followed by 32 hexadecimal characters';
const NUMBER_MESSAGE = 'expected a phone number in E.164 form, such as +14155550100';
const FROM_MESSAGE = `${NUMBER_MESSAGE}, or a Messaging Service SID (MG…)`;
const E164 = /^\+[1-9]\d{6,14}$/;

export const twilioChannel = defineChannel({
  type: 'twilio',
  label: 'SMS (Twilio)',
  config: z
    .object({
      accountSid: z
        .string({ error: SID_MESSAGE })
        .regex(/^AC[0-9a-fA-F]{32}$/, { error: SID_MESSAGE })
        .describe('The Account SID (AC…) from the Twilio Console.'),
      authToken: secretText('Twilio auth token').describe("The account's auth token."),
      from: z
        .string({ error: FROM_MESSAGE })
        .regex(/^(\+[1-9]\d{6,14}|MG[0-9a-fA-F]{32})$/, { error: FROM_MESSAGE })
        .describe('The sender: a Twilio number (+14155550100) or a Messaging Service SID (MG…).'),
      to: z
        .string({ error: NUMBER_MESSAGE })
        .regex(E164, { error: NUMBER_MESSAGE })
        .describe('The phone number the messages go to, in E.164 form.'),
      apiUrl: endpointUrl('Twilio API URL')
        .default('https://api.twilio.com')
        .describe('The API base URL (default https://api.twilio.com).'),
    })
    .strict(),
  secrets: ['authToken'],
  targets: ['apiUrl', 'accountSid', 'to'],
  // Twilio queues what a number cannot send at once (about one SMS a second): a couple at a time.
  maxInFlight: 2,
  textLimits: TEXT_LIMITS,
  text: smsShape,
  send: (event, config, ctx) => {
    const url = `${config.apiUrl.replace(/\/+$/, '')}/2010-04-01/Accounts/${config.accountSid}/Messages.json`;
    const sender = config.from.startsWith('MG') ? 'MessagingServiceSid' : 'From';
    const body = new URLSearchParams([
      ['To', config.to],
      [sender, config.from],
      ['Body', smsText(event)],
    ]).toString();
    const credentials = Buffer.from(`${config.accountSid}:${config.authToken}`).toString('base64');
    const headers = {
      'content-type': 'application/x-www-form-urlencoded',
      authorization: `Basic ${credentials}`,
    };
    return postRequest({ url, headers, body }, ctx);
  },
});

/** A page link longer than this is left out rather than crowding the message out. */
const LINK_CHARS = 120;

/** The SMS's text. */
export function smsText(event: NotificationEvent): string {
  return smsShape(event, TEXT_LIMITS).body;
}

/** One line: the organization, the title, the reason, the page's link; cut with "..." (GSM-7 has no ellipsis). */
function smsShape(event: NotificationEvent, limits: TextLimits): ChannelText {
  const page = pageLink(event);
  const link = page && page.url.length <= LINK_CHARS ? ` ${page.url}` : '';
  const words = `[${event.organization.name}] ${event.title}${event.reason ? `: ${event.reason}` : ''}`;
  const line = words.replace(/\s+/g, ' ').trim();
  const kept = limits.body === undefined ? line : cutAscii(line, limits.body - link.length);
  return { title: '', body: `${kept}${link}`, clipped: { title: false, body: kept !== line } };
}

function cutAscii(text: string, max: number): string {
  const chars = Array.from(text);
  return chars.length <= max ? text : `${chars.slice(0, max - 3).join('')}...`;
}
