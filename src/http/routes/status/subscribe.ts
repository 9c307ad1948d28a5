// Page subscriptions, under the page's paths (/s/{slug}/… or the root of its custom domain):
//   POST …/subscribe             the form (email or webhook), or JSON; an HTML answer page for a form, JSON for JSON
//   GET  …/subscribe/confirm     the double opt-in link
//   GET  …/unsubscribe?token=    a page with a button;  POST: unsubscribes (also a mail client's one-click POST, RFC 8058)
// Subscribing is limited per client address (SUBSCRIBER_LIMITS); the verbs hold every other rule.
import { z } from '@hono/zod-openapi';
import type { Context } from 'hono';
import type { Page } from '../../../domain/page.js';
import { SUBSCRIBER_LIMITS } from '../../../domain/subscriber.js';
import { renderSubscriptionNotice } from '../../../render/html-subscribe.js';
import { type Translator, translator } from '../../../render/i18n/index.js';
import { serviceContext } from '../../../services/context.js';
import type { PageCache } from '../../../services/pages/page-cache.js';
import { confirmSubscription, readUnsubscribe, unsubscribe } from '../../../services/subscribers/links.js';
import type { SubscriberContext } from '../../../services/subscribers/schema.js';
import { subscribeBodySchema } from '../../../services/subscribers/schema.js';
import { type PageRef, type SubscribeOutcome, subscribe } from '../../../services/subscribers/subscribe.js';
import type { App, AppEnv, StatusDeps } from '../../env.js';
import { readBodyBytes } from '../../middleware/json-body.js';
import { createRateLimiter } from '../../middleware/rate-limit.js';
import { problemResponse as documentedProblem, TAGS } from '../../openapi.js';
import { type Problem, problem, problemOf, problemResponse } from '../../problem.js';
import { languageHeaders, pickedLanguage, type ReaderLanguage, readerLanguage } from './page-language.js';
import { requestClient } from './request-client.js';

/** A subscribe request's body is small: an address or a URL. */
export const SUBSCRIBE_BODY_MAX_BYTES = 4096;

type Action = 'subscribe' | 'confirm' | 'unsubscribe';

const ACTIONS: Record<string, Action> = {
  '/subscribe': 'subscribe',
  '/subscribe/confirm': 'confirm',
  '/unsubscribe': 'unsubscribe',
};

export function subscriptionRoutes(app: App, deps: StatusDeps): void {
  documentRoutes(app);
  // In-process, like the API's limiter: each Warden process counts on its own.
  const limiter = createRateLimiter({
    requests: SUBSCRIBER_LIMITS.subscribeRequests,
    windowMs: SUBSCRIBER_LIMITS.subscribeWindowMs,
    maxKeys: SUBSCRIBER_LIMITS.trackedClients,
  });
  app.use('*', async (c, next) => {
    const target = resolve(c, deps.pages);
    if (!target) return next();
    const { action, slug, basePath } = target;
    const method = c.req.method;
    // The verbs' context, under the probe-target policy (a webhook subscriber is checked as a channel's target is).
    const ctx: SubscriberContext = {
      ...serviceContext(deps, { logger: c.get('log') }),
      privateTargets: deps.security.probePrivateTargets,
    };
    // The answer pages speak the reader's language: the form's ?lang, else the page's, else Accept-Language.
    const url = c.req.url;
    const reader = readerLanguage(
      target.page,
      pickedLanguage(url.includes('?') ? url.slice(url.indexOf('?') + 1) : ''),
      c.req.header('accept-language'),
    );
    const i18n = translator(reader.language);
    const html = (notice: Notice, status = 200) => noticeResponse(c, reader, notice, status);
    const token = c.req.query('token') ?? '';
    const noStore = { 'cache-control': 'no-store' };
    try {
      if (action === 'subscribe') {
        // A plain visit (the form's address typed in): the page's form.
        if (method === 'GET' || method === 'HEAD') return c.redirect(`${basePath || '/'}#subscribe`, 303);
        if (method !== 'POST') return next();
        const json = /^application\/json\b/i.test(c.req.header('content-type') ?? '');
        const decision = limiter.take(requestClient(c), deps.clock.now());
        if (!decision.allowed) {
          const body = problem(
            429,
            'rate-limited',
            'Too many requests',
            `At most ${SUBSCRIBER_LIMITS.subscribeRequests} subscribe requests per ${SUBSCRIBER_LIMITS.subscribeWindowMs / 60_000} minutes from one address; retry in ${decision.resetSec} s.`,
          );
          const line = i18n.t('notice.tooManyRequests', { seconds: decision.resetSec });
          return failure(c, json, body, target.page, reader, { 'retry-after': String(decision.resetSec) }, [line]);
        }
        const input = await readSubscribeBody(c, json);
        if (input === null)
          return failure(
            c,
            json,
            problem(
              413,
              'body-too-large',
              'Body too large',
              `The body must be at most ${SUBSCRIBE_BODY_MAX_BYTES} bytes.`,
            ),
            target.page,
            reader,
          );
        try {
          const outcome = await subscribe(ctx, { slug, client: requestClient(c), body: input });
          return json
            ? subscribedJson(c, outcome)
            : html(subscribedNotice(i18n, outcome), outcome.kind === 'webhook' ? 201 : 200);
        } catch (error) {
          return failed(c, json, error, target.page, reader);
        }
      }
      if (action === 'confirm') {
        if (method !== 'GET' && method !== 'HEAD') return next();
        // A HEAD (a link checker) confirms nothing.
        if (method === 'HEAD') return new Response(null, { status: 200, headers: noStore });
        const outcome = await confirmSubscription(ctx, { slug, token });
        if (outcome.outcome === 'confirmed')
          return html({
            heading: i18n.t('notice.confirmed'),
            lines: [i18n.t('notice.confirmedText', { address: outcome.address, title: outcome.page.title })],
            page: outcome.page,
          });
        return html(
          {
            heading: i18n.t('notice.invalidLink'),
            lines: [i18n.t('notice.invalidLinkText')],
            page: outcome.page,
            error: true,
          },
          404,
        );
      }
      // unsubscribe
      if (method === 'GET' || method === 'HEAD') {
        const outcome = await readUnsubscribe(ctx, { slug, token });
        if (outcome.outcome !== 'subscribed') return invalidUnsubscribe(html, i18n, outcome.page);
        const formAction = `${basePath}/unsubscribe?token=${encodeURIComponent(token)}${reader.picked ? `&lang=${reader.picked}` : ''}`;
        return html({
          heading: i18n.t('notice.unsubscribeQuestion'),
          lines: [i18n.t('notice.unsubscribeQuestionText', { title: outcome.page.title, address: outcome.address })],
          page: outcome.page,
          button: { action: formAction, label: i18n.t('notice.unsubscribeButton') },
        });
      }
      if (method !== 'POST') return next();
      // The one-click POST (List-Unsubscribe=One-Click) and the button's: the token in the query says who; the body says nothing more.
      await readBodyBytes(c, SUBSCRIBE_BODY_MAX_BYTES).catch(() => Buffer.alloc(0));
      const outcome = await unsubscribe(ctx, { slug, token });
      if (outcome.outcome !== 'unsubscribed') return invalidUnsubscribe(html, i18n, outcome.page);
      return html({
        heading: i18n.t('notice.unsubscribed'),
        lines: [i18n.t('notice.unsubscribedText', { address: outcome.address, title: outcome.page.title })],
        page: outcome.page,
      });
    } catch (error) {
      return failed(c, false, error, target.page, reader);
    }
  });
}

interface Target {
  action: Action;
  slug: string;
  basePath: string;
  page: Page | undefined;
}

function resolve(c: Context<AppEnv>, pages: PageCache): Target | null {
  const path = c.req.path;
  const host = c.req.header('host');
  const onDomain = host ? pages.pageByDomain(host) : undefined;
  const onDomainAction = onDomain ? ACTIONS[path] : undefined;
  if (onDomain && onDomainAction) return { action: onDomainAction, slug: onDomain.slug, basePath: '', page: onDomain };
  const match = /^\/s\/([a-z0-9][a-z0-9_-]{0,63})(\/subscribe|\/subscribe\/confirm|\/unsubscribe)$/.exec(path);
  if (!match) return null;
  const slug = match[1] as string;
  return { action: ACTIONS[match[2] as string] as Action, slug, basePath: `/s/${slug}`, page: pages.pageBySlug(slug) };
}

/** The form's fields, or the JSON body; null past the size cap. Empty fields are left out (a form posts both inputs' names only when filled). */
async function readSubscribeBody(c: Context<AppEnv>, json: boolean): Promise<Record<string, unknown> | null> {
  const declared = c.req.header('content-length');
  if (declared !== undefined && Number(declared) > SUBSCRIBE_BODY_MAX_BYTES) return null;
  const bytes = await readBodyBytes(c, SUBSCRIBE_BODY_MAX_BYTES);
  if (bytes.length > SUBSCRIBE_BODY_MAX_BYTES) return null;
  if (json) {
    try {
      const value: unknown = JSON.parse(bytes.toString('utf8'));
      return value !== null && typeof value === 'object' && !Array.isArray(value)
        ? (value as Record<string, unknown>)
        : {};
    } catch {
      return {};
    }
  }
  const type = c.req.header('content-type') ?? '';
  let field: (name: string) => unknown;
  try {
    const fields = /^multipart\/form-data/i.test(type)
      ? await new Response(new Uint8Array(bytes), { headers: { 'content-type': type } }).formData()
      : new URLSearchParams(bytes.toString('utf8'));
    field = (name) => fields.get(name);
  } catch {
    return {};
  }
  const out: Record<string, unknown> = {};
  for (const name of ['email', 'webhook']) {
    const value = field(name);
    if (typeof value === 'string' && value.trim() !== '') out[name] = value;
  }
  return out;
}

function subscribedJson(c: Context<AppEnv>, outcome: SubscribeOutcome): Response {
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
  return c.json(
    { status: 'confirmed', id: outcome.id, secret: outcome.secret, unsubscribeUrl: outcome.unsubscribeUrl },
    201,
    headers,
  );
}

type Notice = Parameters<typeof renderSubscriptionNotice>[0];

function subscribedNotice(i18n: Translator, outcome: SubscribeOutcome): Notice {
  if (outcome.kind === 'email')
    return {
      heading: i18n.t('notice.checkInbox'),
      lines: [i18n.t('notice.checkInboxText'), i18n.t('notice.nothingUntilConfirmed')],
      page: outcome.page,
    };
  return {
    heading: i18n.t('notice.webhookSubscribed'),
    lines: [i18n.t('notice.webhookSubscribedText'), i18n.t('notice.keepSecret'), outcome.unsubscribeUrl],
    page: outcome.page,
    secret: { label: i18n.t('notice.signingSecret'), value: outcome.secret },
  };
}

function invalidUnsubscribe(
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

function noticeResponse(c: Context<AppEnv>, reader: ReaderLanguage, notice: Notice, status = 200): Response {
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

function failed(
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
function failure(
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

/** Describes the public subscription endpoints in the OpenAPI document (served by the middleware above). */
function documentRoutes(app: App): void {
  const slug = z.string().openapi({ param: { name: 'slug', in: 'path' }, example: 'demo' });
  const token = z
    .string()
    .openapi({ param: { name: 'token', in: 'query' }, description: 'The token of the link, as mailed.' });
  const htmlAnswer = (description: string) => ({ description, content: { 'text/html': { schema: z.string() } } });
  app.openAPIRegistry.registerPath({
    method: 'post',
    path: '/s/{slug}/subscribe',
    tags: [TAGS.status.name],
    summary: "Subscribe to a page's incidents and maintenance",
    description: [
      'When the page takes subscriptions (`subscribe` in its snapshot) and no password protects it. Exactly one of `email` and `webhook`, as a form (the HTML page posts one; answered with an HTML page) or as JSON (answered with JSON).',
      '',
      `**email**: a confirmation link is mailed at once (double opt-in; it works for 48 hours, then the unconfirmed subscription is deleted). The answer is the same whether or not the address was subscribed already. 503 when the server has no SMTP server.`,
      '',
      '**webhook**: Warden first POSTs a verification request to the URL, signed per Standard Webhooks with the new secret: `{"type":"subscription.verify","data":{"challenge":"…"}}`; the endpoint answers 2xx with the challenge (as the body, or JSON `{"challenge":"…"}`). The answer then holds the signing secret (shown once) and the unsubscribe URL. https:// only (http:// to a private address where the organization allows private targets).',
      '',
      `Limits: ${SUBSCRIBER_LIMITS.subscribeRequests} requests per client address per ${SUBSCRIBER_LIMITS.subscribeWindowMs / 60_000} minutes (429); ${SUBSCRIBER_LIMITS.pendingPerClient} subscriptions awaiting confirmation per client address and ${SUBSCRIBER_LIMITS.pendingPerPage} per page (429); ${SUBSCRIBER_LIMITS.confirmedPerPage} confirmed subscribers per page (409). On a custom domain the path is \`/subscribe\`.`,
    ].join('\n'),
    request: {
      params: z.object({ slug }),
      body: {
        required: true,
        content: {
          'application/json': { schema: subscribeBodySchema },
          'application/x-www-form-urlencoded': { schema: subscribeBodySchema },
        },
      },
    },
    responses: {
      200: htmlAnswer('The form was taken (HTML answer): check the inbox, or the webhook secret.'),
      201: {
        description: 'The webhook answered its challenge and is subscribed (JSON; HTML for a form).',
        content: {
          'application/json': {
            schema: z.object({
              status: z.literal('confirmed'),
              id: z.string(),
              secret: z.string().describe('whsec_…: verify webhook-signature with it; shown once.'),
              unsubscribeUrl: z.string().describe('POST it to unsubscribe.'),
            }),
          },
        },
      },
      202: {
        description: 'Email: a confirmation link is on its way if the address takes mail (JSON).',
        content: { 'application/json': { schema: z.object({ status: z.literal('pending'), message: z.string() }) } },
      },
      400: documentedProblem(
        400,
        'Neither or both of email and webhook, an invalid one, or a webhook that failed its verification (`errors` names `body.webhook`).',
      ),
      403: documentedProblem(403, 'The page takes no subscriptions, or a password protects it.'),
      404: documentedProblem(404, 'No page with this slug.'),
      409: documentedProblem(409, 'The page has as many subscribers as it may.'),
      413: documentedProblem(413, `The body is larger than ${SUBSCRIBE_BODY_MAX_BYTES} bytes.`),
      429: documentedProblem(
        429,
        'Too many subscribe requests from this address (Retry-After), or too many subscriptions awaiting confirmation.',
      ),
      503: documentedProblem(
        503,
        'Email: the server has no SMTP server, or the confirmation mail could not be sent just now.',
      ),
    },
  });
  app.openAPIRegistry.registerPath({
    method: 'get',
    path: '/s/{slug}/subscribe/confirm',
    tags: [TAGS.status.name],
    summary: 'Confirm an email subscription (the mailed link)',
    request: { params: z.object({ slug }), query: z.object({ token }) },
    responses: { 200: htmlAnswer('Confirmed.'), 404: htmlAnswer('Not valid: unknown, used, or expired (48 hours).') },
  });
  app.openAPIRegistry.registerPath({
    method: 'get',
    path: '/s/{slug}/unsubscribe',
    tags: [TAGS.status.name],
    summary: 'The unsubscribe link: a page with a button',
    request: { params: z.object({ slug }), query: z.object({ token }) },
    responses: {
      200: htmlAnswer('Whom the link unsubscribes, and the button.'),
      404: htmlAnswer('Not valid (unsubscribed already?).'),
    },
  });
  app.openAPIRegistry.registerPath({
    method: 'post',
    path: '/s/{slug}/unsubscribe',
    tags: [TAGS.status.name],
    summary: 'Unsubscribe (the button, a mail client’s one-click POST, or a webhook subscriber)',
    description: 'The token says who; any body is ignored (`List-Unsubscribe=One-Click`, RFC 8058).',
    request: { params: z.object({ slug }), query: z.object({ token }) },
    responses: {
      200: htmlAnswer('Unsubscribed: nothing more is sent.'),
      404: htmlAnswer('Not valid (unsubscribed already?).'),
    },
  });
}
