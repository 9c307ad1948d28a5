// The links of mail sent through the system SMTP server for an organization's email channel:
//   GET  /notifications/confirm?token=       the double opt-in link (a HEAD, a link checker, confirms nothing)
//   GET  /notifications/unsubscribe?token=   a page with a button;  POST: unsubscribes (a mail client's one-click POST, RFC 8058)
// Answered with small HTML pages in English, as the mails are; the verbs hold every rule.
import { z } from '@hono/zod-openapi';
import type { Context } from 'hono';
import { renderSubscriptionNotice } from '../../render/html-subscribe.js';
import { type ServiceParts, serviceContext } from '../../services/context.js';
import {
  confirmRecipient,
  readRecipientUnsubscribe,
  unsubscribeRecipient,
} from '../../services/notifications/recipient-links.js';
import type { App, AppEnv } from '../env.js';
import { readBodyBytes } from '../middleware/json-body.js';
import { TAGS } from '../openapi.js';

const CONFIRM_PATH = '/notifications/confirm';
const UNSUBSCRIBE_PATH = '/notifications/unsubscribe';
/** A one-click POST carries `List-Unsubscribe=One-Click` and nothing more: the rest of a larger body is not read. */
const BODY_MAX_BYTES = 4096;

const INVALID: Notice = {
  heading: 'This link is not valid',
  lines: ['It was used already, it expired (a confirmation link works for 48 hours), or it was mistyped.'],
};

/** `parts`: the verbs' parts (the links' verbs read and write recipients; the notices link to the public address). */
export function recipientLinkRoutes(app: App, parts: ServiceParts & { readonly baseUrl: string }): void {
  documentRoutes(app);
  const ctx = (c: Context<AppEnv>) => serviceContext(parts, { logger: c.get('log') });
  const notice = (c: Context<AppEnv>, options: Notice, status = 200) => answerNotice(c, parts.baseUrl, options, status);
  const invalidUnsubscribe = (c: Context<AppEnv>) =>
    notice(
      c,
      {
        heading: 'Nothing to unsubscribe',
        lines: ['This link is not valid: unsubscribed already, or mistyped.'],
        error: true,
      },
      404,
    );
  app.on(['GET', 'HEAD'], CONFIRM_PATH, async (c) => {
    if (c.req.method === 'HEAD') return new Response(null, { status: 200, headers: { 'cache-control': 'no-store' } });
    const outcome = await confirmRecipient(ctx(c), { token: c.req.query('token') ?? '' });
    if (outcome.outcome !== 'confirmed') return notice(c, { ...INVALID, error: true }, 404);
    return notice(c, {
      heading: 'Alerts confirmed',
      lines: [
        `${outcome.address} gets the alerts of "${outcome.organization}" from now on. Each one carries a link to unsubscribe.`,
      ],
    });
  });
  app.on(['GET', 'HEAD'], UNSUBSCRIBE_PATH, async (c) => {
    const token = c.req.query('token') ?? '';
    const outcome = await readRecipientUnsubscribe(ctx(c), { token });
    if (outcome.outcome !== 'subscribed') return invalidUnsubscribe(c);
    return notice(c, {
      heading: 'Unsubscribe?',
      lines: [`${outcome.address} will get nothing more from "${outcome.organization}", and will not be asked again.`],
      button: { action: `${UNSUBSCRIBE_PATH}?token=${encodeURIComponent(token)}`, label: 'Unsubscribe' },
    });
  });
  app.post(UNSUBSCRIBE_PATH, async (c) => {
    await readBodyBytes(c, BODY_MAX_BYTES).catch(() => Buffer.alloc(0));
    const outcome = await unsubscribeRecipient(ctx(c), { token: c.req.query('token') ?? '' });
    if (outcome.outcome !== 'unsubscribed') return invalidUnsubscribe(c);
    return notice(c, {
      heading: 'Unsubscribed',
      lines: [`${outcome.address} gets nothing more from "${outcome.organization}".`],
    });
  });
}

type Notice = Omit<Parameters<typeof renderSubscriptionNotice>[0], 'page'>;

function answerNotice(c: Context<AppEnv>, baseUrl: string, options: Notice, status: number): Response {
  const rendered = renderSubscriptionNotice({ ...options, page: { title: 'Warden', url: baseUrl || '/' } });
  return new Response(c.req.method === 'HEAD' ? null : rendered.body, {
    status,
    headers: { 'content-type': rendered.contentType, 'cache-control': 'no-store', 'referrer-policy': 'no-referrer' },
  });
}

/** Describes the links in the OpenAPI document. */
function documentRoutes(app: App): void {
  const token = z
    .string()
    .openapi({ param: { name: 'token', in: 'query' }, description: 'The token of the link, as mailed.' });
  const htmlAnswer = (description: string) => ({ description, content: { 'text/html': { schema: z.string() } } });
  const tags = [TAGS.status.name];
  app.openAPIRegistry.registerPath({
    method: 'get',
    path: CONFIRM_PATH,
    tags,
    summary: "Confirm an organization's alerts by email (the mailed link)",
    description:
      'Mailed through the system SMTP server to a recipient of an email channel without its own server (docs/notifications.md). Works 48 hours.',
    request: { query: z.object({ token }) },
    responses: {
      200: htmlAnswer('Confirmed.'),
      404: htmlAnswer('Not valid: unknown, used, expired, or unsubscribed.'),
    },
  });
  app.openAPIRegistry.registerPath({
    method: 'get',
    path: UNSUBSCRIBE_PATH,
    tags,
    summary: "The unsubscribe link of an organization's alerts: a page with a button",
    request: { query: z.object({ token }) },
    responses: {
      200: htmlAnswer('Whom the link unsubscribes, and the button.'),
      404: htmlAnswer('Not valid (unsubscribed already?).'),
    },
  });
  app.openAPIRegistry.registerPath({
    method: 'post',
    path: UNSUBSCRIBE_PATH,
    tags,
    summary: "Unsubscribe from an organization's alerts (the button, or a mail client's one-click POST)",
    description:
      'The token says who; any body is ignored (`List-Unsubscribe=One-Click`, RFC 8058). The organization never mails nor asks the address again.',
    request: { query: z.object({ token }) },
    responses: { 200: htmlAnswer('Unsubscribed.'), 404: htmlAnswer('Not valid (unsubscribed already?).') },
  });
}
