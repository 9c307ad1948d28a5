// Page subscriptions, under the page's paths (/s/{slug}/… or the root of its custom domain):
//   POST …/subscribe             the form (email or webhook), or JSON; an HTML answer page for a form, JSON for JSON
//   GET  …/subscribe/confirm     the double opt-in link
//   GET  …/unsubscribe?token=    a page with a button;  POST: unsubscribes (also a mail client's one-click POST, RFC 8058)
// Subscribing is limited per client address (SUBSCRIBER_LIMITS); the verbs hold every other rule.
import type { Context } from 'hono';
import type { Page } from '../../../domain/page.js';
import { SUBSCRIBER_LIMITS } from '../../../domain/subscriber.js';
import { translator } from '../../../render/i18n/index.js';
import { serviceContext } from '../../../services/context.js';
import type { PageCache } from '../../../services/pages/page-cache.js';
import { confirmSubscription, readUnsubscribe, unsubscribe } from '../../../services/subscribers/links.js';
import type { SubscriberContext } from '../../../services/subscribers/schema.js';
import { subscribe } from '../../../services/subscribers/subscribe.js';
import type { App, AppEnv, StatusDeps } from '../../env.js';
import { readBodyBytes } from '../../middleware/json-body.js';
import { createRateLimiter } from '../../middleware/rate-limit.js';
import { problem } from '../../problem.js';
import { pickedLanguage, readerLanguage } from './page-language.js';
import { requestClient } from './request-client.js';
import {
  failed,
  failure,
  invalidUnsubscribe,
  type Notice,
  noticeResponse,
  SUBSCRIBE_BODY_MAX_BYTES,
  subscribedJson,
  subscribedNotice,
} from './subscribe-answers.js';
import { documentSubscriptionRoutes } from './subscribe-docs.js';

export { SUBSCRIBE_BODY_MAX_BYTES } from './subscribe-answers.js';

type Action = 'subscribe' | 'confirm' | 'unsubscribe';

const ACTIONS: Record<string, Action> = {
  '/subscribe': 'subscribe',
  '/subscribe/confirm': 'confirm',
  '/unsubscribe': 'unsubscribe',
};

export function subscriptionRoutes(app: App, deps: StatusDeps): void {
  documentSubscriptionRoutes(app);
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
            : html(
                subscribedNotice(i18n, outcome),
                outcome.kind === 'webhook' || outcome.kind === 'discord' ? 201 : 200,
              );
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
  for (const name of ['email', 'webhook', 'discord', 'slack']) {
    const value = field(name);
    if (typeof value === 'string' && value.trim() !== '') out[name] = value;
  }
  return out;
}
