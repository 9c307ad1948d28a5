// What the subscription routes answer: JSON to JSON clients, a notice page in the reader's language to the form, and
// refusals as problem+json or as a notice page.
import type { Context } from 'hono';
import type { Page } from '../../../domain/page.js';
import { renderSubscriptionNotice } from '../../../render/html-subscribe.js';
import { discordChannelUrl, discordSubscribedText } from '../../../render/html-subscribe-channels.js';
import { type Translator, translator } from '../../../render/i18n/index.js';
import type { PageRef, SubscribeOutcome } from '../../../services/subscribers/subscribe.js';
import type { AppEnv } from '../../env.js';
import { type Problem, problemOf, problemResponse } from '../../problem.js';
import { languageHeaders, type ReaderLanguage } from './page-language.js';

/** A subscribe request's body is small: an address or a URL. */
export const SUBSCRIBE_BODY_MAX_BYTES = 4096;

export function subscribedJson(c: Context<AppEnv>, outcome: SubscribeOutcome): Response {
  const headers = { 'cache-control': 'no-store' };
  if (outcome.kind === 'email')
    return c.json(
      {
        status: 'pending',
        message: 'If the address can receive mail, a confirmation link is on its way; it works for 48 hours.',
      },
      202,
      headers,
    );
  if (outcome.kind === 'discord')
    return c.json(
      {
        status: 'confirmed',
        id: outcome.id,
        discord: outcome.webhook,
        message: 'Deleting the webhook in Discord unsubscribes the channel.',
      },
      201,
      headers,
    );
  if (outcome.kind === 'slack')
    return c.json(
      { status: 'pending', id: outcome.id, message: "Nothing is sent until the page's admins approve this webhook." },
      202,
      headers,
    );
  return c.json(
    { status: 'confirmed', id: outcome.id, secret: outcome.secret, unsubscribeUrl: outcome.unsubscribeUrl },
    201,
    headers,
  );
}

export type Notice = Parameters<typeof renderSubscriptionNotice>[0];

export function subscribedNotice(i18n: Translator, outcome: SubscribeOutcome): Notice {
  if (outcome.kind === 'email')
    return {
      heading: i18n.t('notice.checkInbox'),
      lines: [i18n.t('notice.checkInboxText'), i18n.t('notice.nothingUntilConfirmed')],
      page: outcome.page,
    };
  // The form's channel choices without script (with script, the form shows the JSON answer itself).
  if (outcome.kind === 'discord') {
    const { guildId, channelId } = outcome.webhook;
    return {
      heading: i18n.t('notice.discordSubscribed'),
      lines: [discordSubscribedText(i18n, outcome.webhook)],
      page: outcome.page,
      ...(guildId && channelId
        ? { link: { label: i18n.t('subscribe.discordOpen'), url: discordChannelUrl(guildId, channelId) } }
        : {}),
    };
  }
  if (outcome.kind === 'slack')
    return { heading: i18n.t('notice.slackPending'), lines: [i18n.t('subscribe.slackPending')], page: outcome.page };
  return {
    heading: i18n.t('notice.webhookSubscribed'),
    lines: [i18n.t('notice.webhookSubscribedText'), i18n.t('notice.keepSecret'), outcome.unsubscribeUrl],
    page: outcome.page,
    secret: { label: i18n.t('notice.signingSecret'), value: outcome.secret },
  };
}

export function invalidUnsubscribe(
  html: (notice: Notice, status?: number) => Response,
  i18n: Translator,
  page: PageRef,
): Response {
  return html(
    {
      heading: i18n.t('notice.nothingToUnsubscribe'),
      lines: [i18n.t('notice.nothingToUnsubscribeText')],
      page,
      error: true,
    },
    404,
  );
}

export function noticeResponse(c: Context<AppEnv>, reader: ReaderLanguage, notice: Notice, status = 200): Response {
  const rendered = renderSubscriptionNotice({ ...notice, i18n: translator(reader.language) });
  return new Response(c.req.method === 'HEAD' ? null : rendered.body, {
    status,
    headers: {
      'content-type': rendered.contentType,
      'cache-control': 'no-store',
      'referrer-policy': 'no-referrer',
      ...languageHeaders(reader),
    },
  });
}

export function failed(
  c: Context<AppEnv>,
  json: boolean,
  error: unknown,
  page: Page | undefined,
  reader: ReaderLanguage,
): Response {
  const answer = problemOf(error);
  if (answer.unexpected) c.get('log')?.error({ err: error }, 'subscription request failed');
  return failure(c, json, answer.problem, page, reader, answer.headers);
}

/**
 * A refusal: problem+json to JSON clients, a notice page to the form. The page's heading is in the reader's language;
 * its lines are the problem's detail and field errors (English, as the API words them) unless `lines` says better.
 */
export function failure(
  c: Context<AppEnv>,
  json: boolean,
  body: Problem,
  page: Page | undefined,
  reader: ReaderLanguage,
  headers: Record<string, string> = {},
  lines?: string[],
): Response {
  if (json || !page) return problemResponse(c, body, { 'cache-control': 'no-store', ...headers });
  const ref = { slug: page.slug, title: page.title, url: c.req.path.startsWith('/s/') ? `/s/${page.slug}` : '/' };
  const said = lines ?? [
    body.detail ?? body.title,
    ...(body.errors ?? []).map((issue) => `${issue.path}: ${issue.message}`),
  ];
  const i18n = translator(reader.language);
  const rendered = renderSubscriptionNotice({
    heading: i18n.t('notice.failed'),
    lines: said,
    page: ref,
    error: true,
    i18n,
  });
  return new Response(rendered.body, {
    status: body.status,
    headers: {
      'content-type': rendered.contentType,
      'cache-control': 'no-store',
      ...languageHeaders(reader),
      ...headers,
    },
  });
}
