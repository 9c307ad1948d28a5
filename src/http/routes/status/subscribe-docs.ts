// The public subscription endpoints in the OpenAPI document: subscribe, confirm, and unsubscribe (GET and POST).
import { z } from '@hono/zod-openapi';
import { SUBSCRIBER_LIMITS } from '../../../domain/subscriber.js';
import { subscribeBodySchema } from '../../../services/subscribers/schema.js';
import type { App } from '../../env.js';
import { problemResponse as documentedProblem } from '../../openapi.js';
import { registerStatusPath } from './status-path.js';
import { SUBSCRIBE_BODY_MAX_BYTES } from './subscribe-answers.js';

/** Describes the public subscription endpoints in the OpenAPI document (served by the middleware of subscribe.ts). */
export function documentSubscriptionRoutes(app: App): void {
  const token = z
    .string()
    .openapi({ param: { name: 'token', in: 'query' }, description: 'The token of the link, as mailed.' });
  const htmlAnswer = (description: string) => ({ description, content: { 'text/html': { schema: z.string() } } });
  registerStatusPath(app, {
    method: 'post',
    path: '/s/{slug}/subscribe',
    summary: "Subscribe to a page's incidents and maintenance",
    description: [
      'When the page takes subscriptions (`subscribe` in its snapshot) and no password protects it. Exactly one of `email`, `webhook`, `discord` and `slack`, as a form (the HTML page posts one; answered with an HTML page) or as JSON (answered with JSON).',
      '',
      `**email**: a confirmation link is mailed at once (double opt-in; it works for 48 hours, then the unconfirmed subscription is deleted). The answer is the same whether or not the address was subscribed already. 503 when the server has no SMTP server.`,
      '',
      '**webhook**: Warden first POSTs a verification request to the URL, signed per Standard Webhooks with the new secret: `{"type":"subscription.verify","data":{"challenge":"…"}}`; the endpoint answers 2xx with the challenge (as the body, or JSON `{"challenge":"…"}`). The answer then holds the signing secret (shown once) and the unsubscribe URL. https:// only (http:// to a private address where the organization allows private targets).',
      '',
      "**discord**: a Discord channel webhook (`https://discord.com/api/webhooks/{id}/{token}`). Warden asks Discord about it (`GET` on the webhook, under the organization's target policy) and it is confirmed at once; the answer names the webhook and its guild and channel. A webhook Discord does not know answers 400 with Discord's words (`Unknown Webhook`, `Invalid Webhook Token`). There is no unsubscribe link: deleting the webhook in Discord unsubscribes the channel (its next delivery finds it gone), and so does an admin's delete.",
      '',
      "**slack**: a Slack incoming webhook (`https://hooks.slack.com/services/…`). It cannot prove it wants the page's news, so it waits for the page's admins to approve it (`POST /api/v1/pages/{slug}/subscribers/{id}/approve`); nothing is sent until then. It counts against the caps on subscriptions awaiting confirmation, but does not expire.",
      '',
      `Limits: ${SUBSCRIBER_LIMITS.subscribeRequests} requests per client address per ${SUBSCRIBER_LIMITS.subscribeWindowMs / 60_000} minutes (429); ${SUBSCRIBER_LIMITS.pendingPerClient} subscriptions awaiting confirmation per client address and ${SUBSCRIBER_LIMITS.pendingPerPage} per page (429); ${SUBSCRIBER_LIMITS.confirmedPerPage} confirmed subscribers per page (409). On a custom domain the path is \`/subscribe\`.`,
    ].join('\n'),
    body: {
      required: true,
      content: {
        'application/json': { schema: subscribeBodySchema },
        'application/x-www-form-urlencoded': { schema: subscribeBodySchema },
      },
    },
    responses: {
      200: htmlAnswer('The form was taken (HTML answer): check the inbox, or the webhook secret.'),
      201: {
        description:
          'The webhook answered its challenge, or Discord knows the Discord webhook: subscribed (JSON; HTML for a form).',
        content: {
          'application/json': {
            schema: z.union([
              z.object({
                status: z.literal('confirmed'),
                id: z.string(),
                secret: z.string().describe('whsec_…: verify webhook-signature with it; shown once.'),
                unsubscribeUrl: z.string().describe('POST it to unsubscribe.'),
              }),
              z.object({
                status: z.literal('confirmed'),
                id: z.string(),
                discord: z
                  .object({
                    id: z.string(),
                    name: z.string().nullable(),
                    guildId: z.string().nullable(),
                    channelId: z.string().nullable(),
                  })
                  .describe('What Discord says of the webhook: its name, and the guild and channel it posts in.'),
                message: z.string(),
              }),
            ]),
          },
        },
      },
      202: {
        description:
          "Email: a confirmation link is on its way if the address takes mail; Slack: the webhook awaits the page's admins (JSON).",
        content: {
          'application/json': {
            schema: z.object({
              status: z.literal('pending'),
              id: z.string().optional().describe('Slack: the subscriber awaiting approval.'),
              message: z.string(),
            }),
          },
        },
      },
      400: documentedProblem(
        400,
        'Not exactly one of email, webhook, discord and slack, an invalid one, a webhook that failed its verification, or a Discord webhook Discord does not know (`errors` names the field).',
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
  registerStatusPath(app, {
    path: '/s/{slug}/subscribe/confirm',
    summary: 'Confirm an email subscription (the mailed link)',
    query: { token },
    responses: { 200: htmlAnswer('Confirmed.'), 404: htmlAnswer('Not valid: unknown, used, or expired (48 hours).') },
  });
  registerStatusPath(app, {
    path: '/s/{slug}/unsubscribe',
    summary: 'The unsubscribe link: a page with a button',
    query: { token },
    responses: {
      200: htmlAnswer('Whom the link unsubscribes, and the button.'),
      404: htmlAnswer('Not valid (unsubscribed already?).'),
    },
  });
  registerStatusPath(app, {
    method: 'post',
    path: '/s/{slug}/unsubscribe',
    summary: 'Unsubscribe (the button, a mail client’s one-click POST, or a webhook subscriber)',
    description: 'The token says who; any body is ignored (`List-Unsubscribe=One-Click`, RFC 8058).',
    query: { token },
    responses: {
      200: htmlAnswer('Unsubscribed: nothing more is sent.'),
      404: htmlAnswer('Not valid (unsubscribed already?).'),
    },
  });
}
