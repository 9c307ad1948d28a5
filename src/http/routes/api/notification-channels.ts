// /api/v1/notification-channels: list, read, create, change, delete, send a test, and the delivery log; the types for forms.
import { z } from '@hono/zod-openapi';
import type { SecurityOptions } from '../../../domain/security.js';
import { channelId } from '../../../services/audit/labels.js';
import {
  previewTemplate,
  templatePreviewInput,
  templatePreviewSchema,
} from '../../../services/notifications/preview-template.js';
import { getChannel, listChannels, listDeliveries } from '../../../services/notifications/read.js';
import { channelRecipientsSchema, listChannelRecipients } from '../../../services/notifications/recipients.js';
import {
  channelCreateSchema,
  channelPatchSchema,
  deliveriesQuerySchema,
} from '../../../services/notifications/schema.js';
import { testChannel } from '../../../services/notifications/send-test.js';
import { channelTypesSchema, listChannelTypes } from '../../../services/notifications/types.js';
import { channelCreatedSchema, channelViewSchema, deliveryViewSchema } from '../../../services/notifications/view.js';
import {
  createChannel,
  deleteChannel,
  rotateChannelSecret,
  updateChannel,
} from '../../../services/notifications/write.js';
import type { App } from '../../env.js';
import { changeOne, deletedAudit, deleteOne, keyedAudit, readOne } from './one-object.js';
import { type ApiGuards, apiOperation, listOperation } from './operation.js';

const Channel = channelViewSchema.openapi('NotificationChannel');
const Delivery = deliveryViewSchema.openapi('NotificationDelivery');
const params = z.object({
  key: z
    .string()
    .min(1)
    .max(200)
    .openapi({
      param: { name: 'key', in: 'path', description: "The channel's key, or its id." },
      example: 'ops-discord',
    }),
});
const notFound = 'No notification channel with this key or id in your organization.';

/** `security`: a channel's test connects under the probe-target policy, as its sends do. */
export function notificationChannelRoutes(
  app: App,
  guards: ApiGuards,
  security: Pick<SecurityOptions, 'probePrivateTargets'>,
): void {
  const op = { tag: 'notifications', path: '/api/v1/notification-channels' } as const;
  listOperation(app, guards, {
    ...op,
    summary: 'List notification channels',
    description: "The organization's channels, by key. Secrets of the configuration are redacted.",
    key: 'channels',
    item: Channel,
    ok: 'The channels, by key.',
    run: listChannels,
  });
  apiOperation(app, guards, {
    ...op,
    path: '/api/v1/notification-channel-types',
    method: 'get',
    summary: 'Notification channel types',
    description:
      'Each channel type with its label, its secret and target fields and the JSON Schema of its `config`, and the schema of the `rules` every type shares: generated from the zod schemas the API validates with, for forms (descriptions, defaults, bounds).',
    scope: 'read',
    ok: { status: 200, schema: channelTypesSchema.openapi('NotificationChannelTypes'), description: 'The types.' },
    run: listChannelTypes,
  });
  apiOperation(app, guards, {
    ...op,
    method: 'post',
    summary: 'Create a notification channel',
    description:
      "The body is a channel as in warden.yaml (one shape per type, chosen by `type`), except that a webhook's `config.secret` may be left out: Warden then generates a signing secret (whsec_…) and answers it this once, as `secret`. Its secrets are never shown again.",
    scope: 'write',
    role: 'admin',
    body: channelCreateSchema.openapi('NotificationChannelCreate'),
    ok: {
      status: 201,
      schema: channelCreatedSchema.openapi('NotificationChannelCreated'),
      description: 'Created; with `secret` when Warden generated one.',
    },
    run: createChannel,
    audit: keyedAudit('notification-channel.create'),
  });
  apiOperation(app, guards, {
    ...op,
    path: '/api/v1/notification-channels/preview-template',
    method: 'post',
    summary: 'Preview a message template',
    description:
      'Renders a channel\'s `config.template` over a made-up event of every kind, with the fields a template may use (docs/notifications.md, "Message templates"). With a channel `type`, each sample is what a channel of the type would send: its title and body cut to that channel\'s own limits (`channel.limits`), and `clipped` says which were cut. Nothing is stored or sent. A template that does not check, or a type there is none of, is a 400 naming the field, as on save.',
    scope: 'write',
    body: templatePreviewInput.openapi('MessageTemplatePreviewRequest'),
    ok: {
      status: 200,
      schema: templatePreviewSchema.openapi('MessageTemplatePreview'),
      description: 'The samples, rendered.',
    },
    run: previewTemplate,
  });
  const one = { ...op, path: '/api/v1/notification-channels/{key}', params, notFound } as const;
  apiOperation(app, guards, { ...one, ...readOne('notification channel', Channel, 'channel'), run: getChannel });
  apiOperation(app, guards, {
    ...one,
    ...changeOne('notification channel', channelPatchSchema.openapi('NotificationChannelPatch'), Channel, 'channel'),
    description:
      'Changes the fields given; the type and key stay. A secret sent back as "[redacted]" (or left out) keeps its value only while no target field (the URL, the chat) changes: otherwise 400 names it. Channels managed by warden.yaml answer 409.',
    role: 'admin',
    run: updateChannel,
    audit: keyedAudit('notification-channel.update'),
  });
  apiOperation(app, guards, {
    ...one,
    ...deleteOne('notification channel'),
    description:
      'Deletes the channel and its delivery log; pending deliveries are not sent. Channels managed by warden.yaml answer 409.',
    role: 'admin',
    run: deleteChannel,
    audit: deletedAudit('notification-channel.delete', channelId),
  });
  channelActionRoutes(app, guards, one, security);
}

/** One channel's test send, a new generated secret, its recipients on the system SMTP server, and its delivery log. */
function channelActionRoutes(
  app: App,
  guards: ApiGuards,
  one: { tag: 'notifications'; path: string; params: typeof params; notFound: string },
  security: Pick<SecurityOptions, 'probePrivateTargets'>,
): void {
  apiOperation(app, guards, {
    ...one,
    path: '/api/v1/notification-channels/{key}/test',
    method: 'post',
    summary: 'Send a test notification',
    description:
      'Sends a `test` event through the channel now (enabled or not), once, and answers with the outcome; the attempt is recorded in the delivery log (sent, or dead with the error and answer). Tests are never retried. An email channel on the system SMTP server mails only the recipients who confirmed (the others get a confirmation link instead: `skipped` when none has confirmed yet), and answers 429 with Retry-After past its limits (docs/notifications.md, "The system SMTP server").',
    scope: 'write',
    role: 'admin',
    ok: {
      status: 200,
      schema: z
        .object({
          outcome: z
            .enum(['sent', 'failed', 'skipped'])
            .describe(
              'sent: the receiver accepted it; skipped: no recipient of the system SMTP server has confirmed yet.',
            ),
          delivery: Delivery,
        })
        .openapi('NotificationTestOutcome'),
      description: 'What the attempt came to.',
    },
    run: (ctx, input) => testChannel({ ...ctx, privateTargets: security.probePrivateTargets }, input),
    // The send holds no transaction; the entry follows it, whatever it came to.
    audit: {
      action: 'notification-channel.test',
      object: () => ({ id: null, label: null }),
      before: channelId,
      detail: (_input, { outcome }) => ({ outcome }),
      outside: true,
    },
  });
  apiOperation(app, guards, {
    ...one,
    path: '/api/v1/notification-channels/{key}/secret',
    method: 'post',
    summary: 'A new signing secret for a webhook channel',
    description:
      'Generates a new signing secret (whsec_…) for a webhook channel and answers it this once, as `secret`; deliveries are signed with it from now on, and later reads show "[redacted]". Other types, and channels managed by warden.yaml (the file sets the secret), answer 409.',
    scope: 'write',
    role: 'admin',
    ok: {
      status: 200,
      schema: channelCreatedSchema
        .extend({ secret: z.string().describe('The new signing secret: shown in this answer only.') })
        .openapi('NotificationChannelSecret'),
      description: 'The channel, and its new secret this once.',
    },
    run: rotateChannelSecret,
    audit: {
      action: 'notification-channel.rotate-secret',
      object: (_input, channel) => ({ id: channel.id, label: channel.key }),
    },
  });
  apiOperation(app, guards, {
    ...one,
    path: '/api/v1/notification-channels/{key}/recipients',
    method: 'get',
    summary: "An email channel's recipients on the system SMTP server",
    description:
      'Whether the recipients of an email channel without its own SMTP server must confirm (WARDEN_SMTP_TENANTS) and, when they must, where each address stands: confirmed, pending (a link was mailed), unasked (the next send mails one), unsubscribed.',
    scope: 'read',
    role: 'admin',
    ok: {
      status: 200,
      schema: channelRecipientsSchema.openapi('NotificationChannelRecipients'),
      description: 'The recipients.',
    },
    run: listChannelRecipients,
  });
  apiOperation(app, guards, {
    ...one,
    path: '/api/v1/notification-channels/{key}/deliveries',
    method: 'get',
    summary: "A notification channel's deliveries",
    description:
      'The delivery log, newest first: status, attempts, last error and answer, timestamps. Kept 30 days. The answers may show where the channel points.',
    scope: 'read',
    role: 'admin',
    query: deliveriesQuerySchema,
    ok: {
      status: 200,
      schema: z.object({ deliveries: z.array(Delivery) }).openapi('NotificationDeliveries'),
      description: 'The deliveries.',
    },
    run: listDeliveries,
    respond: (deliveries) => ({ deliveries }),
  });
}
