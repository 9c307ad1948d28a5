// /api/v1/pages/{slug}/subscribers: the visitors following a page's incidents and maintenance (list, remove one).
import { z } from '@hono/zod-openapi';
import { SUBSCRIBER_LIMITS } from '../../../domain/subscriber.js';
import {
  approveSubscriber,
  deleteSubscriber,
  listSubscribers,
  subscriberListViewSchema,
  subscriberViewSchema,
} from '../../../services/subscribers/manage.js';
import type { App } from '../../env.js';
import { type ApiGuards, apiOperation, idParam, slugParam } from './operation.js';

const Subscriber = subscriberViewSchema.openapi('PageSubscriber');
const SubscriberList = subscriberListViewSchema
  .extend({ subscribers: z.array(Subscriber) })
  .openapi('PageSubscriberList');

export function pageSubscriberRoutes(app: App, guards: ApiGuards): void {
  apiOperation(app, guards, {
    tag: 'pages',
    method: 'get',
    path: '/api/v1/pages/{slug}/subscribers',
    summary: "List a page's subscribers",
    description: `Email and webhook subscribers, confirmed or awaiting confirmation, by id, ${SUBSCRIBER_LIMITS.listMax} at most per request (\`next\` goes on), with the counts. Tokens and secrets are never shown. Visitors subscribe on the page itself (POST /s/{slug}/subscribe) when its \`subscriptions\` is on.`,
    scope: 'read',
    // Subscribers are people's addresses: admins only.
    role: 'admin',
    params: z.object({ slug: slugParam }),
    query: z.object({
      limit: z
        .string()
        .optional()
        .openapi({ description: `How many (1 to ${SUBSCRIBER_LIMITS.listMax}, 100 by default).`, example: '100' }),
      after: z.string().max(100).optional().openapi({ description: 'The `next` of the previous answer.' }),
    }),
    notFound: 'No page with this slug or id in your organization.',
    ok: { status: 200, schema: SubscriberList, description: 'The subscribers and the counts.' },
    run: listSubscribers,
  });
  apiOperation(app, guards, {
    tag: 'pages',
    method: 'post',
    path: '/api/v1/pages/{slug}/subscribers/{id}/approve',
    summary: 'Approve a Slack subscriber',
    description:
      "A Slack incoming webhook cannot prove it wants the page's news, so it waits for an admin: once approved, the page's incidents and maintenance go to it. Approving one already approved changes nothing.",
    scope: 'write',
    role: 'admin',
    params: z.object({ slug: slugParam, id: idParam('subscriber', 'sub_0123456789abcdef') }),
    notFound: 'No such subscriber on this page (or no such page in your organization).',
    ok: { status: 200, schema: Subscriber, description: 'The subscriber, approved.' },
    run: approveSubscriber,
    audit: { action: 'subscriber.approve', object: ({ id }) => ({ id, label: null }) },
  });
  apiOperation(app, guards, {
    tag: 'pages',
    method: 'delete',
    path: '/api/v1/pages/{slug}/subscribers/{id}',
    summary: 'Remove a subscriber',
    description:
      'It gets nothing more (its pending deliveries go too) and is not told. A Discord channel has no unsubscribe link: deleting its webhook in Discord unsubscribes it too (its next delivery finds it gone).',
    scope: 'write',
    role: 'admin',
    params: z.object({ slug: slugParam, id: idParam('subscriber', 'sub_0123456789abcdef') }),
    notFound: 'No such subscriber on this page (or no such page in your organization).',
    ok: { status: 204, description: 'Removed.' },
    run: deleteSubscriber,
    // No label: the address is personal data, and the audit log outlives the subscription.
    audit: { action: 'subscriber.delete', object: ({ id }) => ({ id, label: null }) },
  });
}
