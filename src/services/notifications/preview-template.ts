// `POST /api/v1/notification-channels/preview-template`: a message template rendered over a sample event of every kind
// (docs/notifications.md, "Message templates"). With a channel `type`, each sample is what that channel would send: its
// title and body cut to the channel's own limits (its definition's `textLimits` and `text`, which its send path uses
// too), and whether either was cut. Nothing is stored or sent.
import { z } from 'zod';
import { NOTIFICATION_KINDS, type NotificationEvent, withMessage } from '../../notify/channels/channel.js';
import { CHANNEL_TYPES, type ChannelType, channelDefinition } from '../../notify/channels/registry.js';
import { plainText } from '../../notify/events/format.js';
import { KIND_LABELS, TEMPLATE_FIELDS } from '../../notify/templates/fields.js';
import { sampleEvents } from '../../notify/templates/samples.js';
import {
  type MessageTemplate,
  messageTemplateSchema,
  renderMessageCut,
  TEMPLATE_OUTPUT,
} from '../../notify/templates/template.js';
import { readVerb } from '../context.js';

export const templatePreviewInput = z
  .object({
    type: z
      .enum(CHANNEL_TYPES, { error: `expected one of ${CHANNEL_TYPES.join(', ')}` })
      .optional()
      .describe("The channel type: each sample shows what it would send, cut to its limits. Absent: the template's."),
    template: messageTemplateSchema,
  })
  .strict();

const clippedSchema = z
  .object({ title: z.boolean(), body: z.boolean() })
  .describe('Whether the title and body were cut to fit: the template’s limits, or the channel’s.');

export const templatePreviewSchema = z.object({
  samples: z
    .array(
      z.object({
        kind: z.enum(NOTIFICATION_KINDS),
        label: z.string().describe('The kind in words, as `{{kindLabel}}` renders it.'),
        title: z
          .string()
          .describe('The title the channel would send: the template’s, or Warden’s own. Empty: the channel has none.'),
        body: z
          .string()
          .describe(
            'The text the channel would send: the template’s, or Warden’s own (reason and facts; a chat or card channel’s body is the reason alone, its facts are fields of their own).',
          ),
        clipped: clippedSchema,
      }),
    )
    .describe('A made-up event of every kind, rendered.'),
  fields: z.array(z.object({ name: z.string(), description: z.string() })).describe('The fields a template may use.'),
  limits: z
    .object({ title: z.number().int(), body: z.number().int() })
    .describe('The most characters of a rendered title and body; channels with smaller limits cut further.'),
  channel: z
    .object({
      type: z.enum(CHANNEL_TYPES),
      label: z.string(),
      limits: z
        .object({ title: z.number().int().nullable(), body: z.number().int().nullable() })
        .describe('The most characters of the title and body the channel sends; null: no cut of its own.'),
    })
    .optional()
    .describe('The channel type the samples were cut for, when one was given.'),
});

export type TemplatePreview = z.infer<typeof templatePreviewSchema>;
type Sample = TemplatePreview['samples'][number];

export const previewTemplate = readVerb(
  templatePreviewInput,
  async (_ctx, { type, template }): Promise<TemplatePreview> => {
    const samples = sampleEvents().map((event) => ({
      kind: event.kind,
      label: KIND_LABELS[event.kind],
      ...(type ? asChannelSends(event, template, type) : asRendered(event, template)),
    }));
    return {
      samples,
      fields: TEMPLATE_FIELDS.map((field) => ({ ...field })),
      limits: { ...TEMPLATE_OUTPUT },
      ...(type ? { channel: channelLimits(type) } : {}),
    };
  },
);

type SampleText = Omit<Sample, 'kind' | 'label'>;

/** The template's title and body (Warden's where it sets none), as rendered. */
function asRendered(event: NotificationEvent, template: MessageTemplate): SampleText {
  const { message, clipped } = renderMessageCut(template, event);
  const sent = withMessage(event, message, 'text');
  return { title: sent.title, body: message.body ?? plainText(event, { title: false }), clipped };
}

/** What a channel of the type sends: its own shape of title and body, cut to its limits. */
function asChannelSends(event: NotificationEvent, template: MessageTemplate, type: ChannelType): SampleText {
  const channel = channelDefinition(type);
  const { message, clipped } = renderMessageCut(template, event);
  const text = channel.text(withMessage(event, message, 'text'), channel.textLimits);
  return {
    title: text.title,
    body: text.body,
    clipped: { title: clipped.title || text.clipped.title, body: clipped.body || text.clipped.body },
  };
}

function channelLimits(type: ChannelType): NonNullable<TemplatePreview['channel']> {
  const { label, textLimits } = channelDefinition(type);
  return { type, label, limits: { title: textLimits.title ?? null, body: textLimits.body ?? null } };
}
