// The signed link in an alert (docs/notifications.md, "Escalation and acknowledgement"):
//   GET  /alerts/acknowledge?alert=&expires=&sig=   a page naming the alert, with a button (a link scanner acknowledges nothing)
//   POST /alerts/acknowledge?alert=&expires=&sig=   acknowledges it, by `link`
// A signature that does not match is a 403, an expired link a 410; the verbs hold every rule.
import { z } from '@hono/zod-openapi';
import type { Context } from 'hono';
import { ACK_LINK_PATH } from '../../domain/alert.js';
import { renderSubscriptionNotice } from '../../render/html-subscribe.js';
import { type AckLinkOutcome, acknowledgeByLink, readAckLink } from '../../services/alerts/acknowledge.js';
import type { AlertView } from '../../services/alerts/view.js';
import { type ServiceParts, serviceContext } from '../../services/context.js';
import type { App, AppEnv } from '../env.js';
import { readBodyBytes } from '../middleware/json-body.js';
import { TAGS } from '../openapi.js';

/** A form's POST carries nothing we need: the rest of a larger body is not read. */
const BODY_MAX_BYTES = 4096;

export function alertLinkRoutes(app: App, parts: ServiceParts & { readonly baseUrl: string }): void {
  documentRoutes(app);
  const ctx = (c: Context<AppEnv>) => serviceContext(parts, { logger: c.get('log') });
  const link = (c: Context<AppEnv>) => ({
    alert: c.req.query('alert') ?? '',
    expires: c.req.query('expires') ?? '',
    sig: c.req.query('sig') ?? '',
  });
  const action = (c: Context<AppEnv>) => {
    const { alert, expires, sig } = link(c);
    return `${ACK_LINK_PATH}?alert=${encodeURIComponent(alert)}&expires=${encodeURIComponent(expires)}&sig=${encodeURIComponent(sig)}`;
  };
  app.on(['GET', 'HEAD'], ACK_LINK_PATH, async (c) => {
    const outcome = await readAckLink(ctx(c), link(c));
    if (outcome.outcome !== 'open') return answer(c, parts.baseUrl, outcome);
    return page(c, parts.baseUrl, 200, {
      heading: 'Acknowledge this alert?',
      lines: [
        `${describe(outcome.alert)}.`,
        'Acknowledging tells everyone someone is on it, and stops its reminders and escalation.',
      ],
      button: { action: action(c), label: 'Acknowledge' },
    });
  });
  app.post(ACK_LINK_PATH, async (c) => {
    await readBodyBytes(c, BODY_MAX_BYTES).catch(() => Buffer.alloc(0));
    return answer(c, parts.baseUrl, await acknowledgeByLink(ctx(c), link(c)), true);
  });
}

function describe(alert: AlertView): string {
  return `${alert.monitor.name} is ${alert.openedState} since ${new Date(alert.openedAt).toISOString().slice(0, 16).replace('T', ' ')} UTC`;
}

function answer(c: Context<AppEnv>, baseUrl: string, outcome: AckLinkOutcome, posted = false): Response {
  switch (outcome.outcome) {
    case 'invalid':
      return page(c, baseUrl, 403, {
        heading: 'This link is not valid',
        lines: ['It was mistyped or changed: use the link in the alert as it came.'],
        error: true,
      });
    case 'expired':
      return page(c, baseUrl, 410, {
        heading: 'This link expired',
        lines: ['An alert’s link works for 7 days: acknowledge it in the dashboard.'],
        error: true,
      });
    case 'resolved':
      return page(c, baseUrl, posted ? 409 : 200, {
        heading: 'Resolved already',
        lines: [`${outcome.alert.monitor.name} is back up: nothing to acknowledge.`],
      });
    default: {
      const ack = outcome.alert.acknowledged;
      return page(c, baseUrl, 200, {
        heading: posted && ack?.by === 'link' ? 'Acknowledged' : 'Acknowledged already',
        lines: [
          `${describe(outcome.alert)}.`,
          ack
            ? `Acknowledged by ${ack.by} at ${new Date(ack.at).toISOString().slice(0, 16).replace('T', ' ')} UTC.`
            : '',
        ].filter(Boolean),
      });
    }
  }
}

type Notice = Omit<Parameters<typeof renderSubscriptionNotice>[0], 'page'>;

function page(c: Context<AppEnv>, baseUrl: string, status: number, options: Notice): Response {
  const rendered = renderSubscriptionNotice({ ...options, page: { title: 'Warden', url: baseUrl || '/' } });
  return new Response(c.req.method === 'HEAD' ? null : rendered.body, {
    status,
    headers: {
      'content-type': rendered.contentType,
      'cache-control': 'no-store',
      'referrer-policy': 'no-referrer',
      'x-robots-tag': 'noindex',
    },
  });
}

/** Describes the link in the OpenAPI document. */
function documentRoutes(app: App): void {
  const query = z.object({
    alert: z.string().openapi({ param: { name: 'alert', in: 'query' }, description: 'The alert id.' }),
    expires: z.string().openapi({ param: { name: 'expires', in: 'query' }, description: 'Until when (epoch ms).' }),
    sig: z.string().openapi({ param: { name: 'sig', in: 'query' }, description: 'The signature of both.' }),
  });
  const html = (description: string) => ({ description, content: { 'text/html': { schema: z.string() } } });
  const responses = {
    403: html('The signature does not match (or the alert is unknown).'),
    410: html('The link expired (7 days).'),
  };
  const tags = [TAGS.alerts.name];
  app.openAPIRegistry.registerPath({
    method: 'get',
    path: ACK_LINK_PATH,
    tags,
    summary: 'The link in an alert: a page with a button that acknowledges it',
    description: 'Opening it changes nothing (link scanners open links); the button POSTs.',
    request: { query },
    responses: { 200: html('The alert, and the button (or who acknowledged it).'), ...responses },
  });
  app.openAPIRegistry.registerPath({
    method: 'post',
    path: ACK_LINK_PATH,
    tags,
    summary: 'Acknowledge an alert by the link in it',
    description: 'Acknowledged by `link`, audit-logged; any body is ignored.',
    request: { query },
    responses: {
      200: html('Acknowledged (or acknowledged already).'),
      409: html('Resolved already.'),
      ...responses,
    },
  });
}
