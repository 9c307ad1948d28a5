// Telegram: a bot's sendMessage to one chat. Wire format:
//   POST {apiBaseUrl}/bot{botToken}/sendMessage   content-type: application/json
//   { chat_id, parse_mode: "HTML", disable_web_page_preview: true,
//     text: "<emoji> <b>title</b>\nreason\n\n<b>Monitor:</b> Lobby\n<b>Page:</b> <a href=\"…\">Main</a>\n…\n\n<i>org · time</i>" }
// A 429 says when to come back in Retry-After and in the body's parameters.retry_after: the later of the two is kept.
import { z } from 'zod';
import { eventFacts, footnote, REASON_CHARS, SEVERITY_LOOK } from '../events/format.js';
import { defineChannel, type NotificationEvent, type SendOutcome } from './channel.js';
import { endpointUrl } from './fields.js';
import { postRequest } from './http-send.js';
import { reasonText, type TextLimits } from './text-limits.js';

const TEXT_LIMITS: TextLimits = { body: REASON_CHARS };

const TOKEN_MESSAGE = 'expected a bot token from @BotFather, such as 123456789:AAH…';
const CHAT_MESSAGE = 'expected a chat id (a number such as -1001234567890) or a public @channelname';

export const telegramChannel = defineChannel({
  type: 'telegram',
  label: 'Telegram',
  config: z
    .object({
      botToken: z
        .string({ error: TOKEN_MESSAGE })
        .regex(/^\d{1,20}:[A-Za-z0-9_-]{20,200}$/, { error: TOKEN_MESSAGE })
        .describe('The bot token from @BotFather.'),
      chatId: z
        .union([z.int({ error: CHAT_MESSAGE }), z.string({ error: CHAT_MESSAGE })], { error: CHAT_MESSAGE })
        .transform((id) => String(id).trim())
        .pipe(z.string().regex(/^(-?\d{1,20}|@[A-Za-z][A-Za-z0-9_]{3,31})$/, { error: CHAT_MESSAGE }))
        .describe('Where the bot posts: a user, group or channel id, or @channelname.'),
      apiBaseUrl: endpointUrl('Telegram API base URL').default('https://api.telegram.org'),
    })
    .strict(),
  targets: ['apiBaseUrl', 'chatId'],
  // Telegram: about one message a second per chat.
  maxInFlight: 1,
  textLimits: TEXT_LIMITS,
  send: async (event, config, ctx) => {
    const url = `${config.apiBaseUrl.replace(/\/+$/, '')}/bot${config.botToken}/sendMessage`;
    const body = {
      chat_id: config.chatId,
      text: telegramText(event),
      parse_mode: 'HTML',
      disable_web_page_preview: true,
    };
    const outcome = await postRequest({ url, body }, ctx);
    return withoutToken(
      outcome.kind === 'retry' && outcome.status === 429 ? honourRetryAfter(outcome) : outcome,
      config.botToken,
    );
  },
});

/** Telegram's longest message, in characters after entity parsing; the text stays well under it. */
export const TELEGRAM_TEXT_CHARS = 4096;

export function telegramText(event: NotificationEvent): string {
  const text = reasonText(event, TEXT_LIMITS);
  const lines = [`${SEVERITY_LOOK[event.severity].emoji} <b>${escapeHtml(text.title)}</b>`];
  if (text.body) lines.push(escapeHtml(text.body));
  const facts = eventFacts(event).map(
    (fact) =>
      `<b>${escapeHtml(fact.name)}:</b> ${fact.url ? `<a href="${escapeHtml(fact.url)}">${escapeHtml(fact.value)}</a>` : escapeHtml(fact.value)}`,
  );
  if (facts.length > 0) lines.push('', ...facts);
  lines.push('', `<i>${escapeHtml(footnote(event))}</i>`);
  return lines.join('\n');
}

/** Telegram's HTML mode wants &, < and > escaped outside tags, and " inside an attribute. */
export function escapeHtml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

/** The later of Retry-After and the body's parameters.retry_after (seconds). */
function honourRetryAfter(outcome: Extract<SendOutcome, { kind: 'retry' }>): SendOutcome {
  const fromBody = bodyRetryAfter(outcome.answer);
  if (fromBody === undefined) return outcome;
  return { ...outcome, afterMs: Math.max(outcome.afterMs ?? 0, fromBody * 1000) };
}

function bodyRetryAfter(answer: string | undefined): number | undefined {
  try {
    const seconds = (JSON.parse(answer ?? '') as { parameters?: { retry_after?: unknown } })?.parameters?.retry_after;
    return typeof seconds === 'number' && Number.isFinite(seconds) && seconds >= 0 ? seconds : undefined;
  } catch {
    return undefined;
  }
}

/** The token is in the URL: no error or answer that reaches the delivery log may repeat it. */
function withoutToken(outcome: SendOutcome, token: string): SendOutcome {
  const hide = (text: string) => text.split(token).join('<bot token>');
  const answer = outcome.answer === undefined ? {} : { answer: hide(outcome.answer) };
  return outcome.kind === 'sent' ? { ...outcome, ...answer } : { ...outcome, error: hide(outcome.error), ...answer };
}
