// `POST /api/v1/notification-channels/preview-template`: a message template rendered over a sample event of every kind,
// as a channel of the type would send it (docs/notifications.md, "Message templates"). Nothing is stored or sent.
import { z } from 'zod';
import { NOTIFICATION_KINDS, templated } from '../../notify/channels/channel.js';
import { CHANNEL_TYPES } from '../../notify/channels/registry.js';
import { plainText } from '../../notify/events/format.js';
import { KIND_LABELS, TEMPLATE_FIELDS } from '../../notify/templates/fields.js';
import { sampleEvents } from '../../notify/templates/samples.js';
import { messageTemplateSchema, TEMPLATE_OUTPUT } from '../../notify/templates/template.js';
import { readVerb } from '../context.js';

export const templatePreviewInput = z
  .object({
    type: z.enum(CHANNEL_TYPES, { error: `expected one of ${CHANNEL_TYPES.join(', ')}` }),
    template: messageTemplateSchema,
  })
  .strict();

export const templatePreviewSchema = z.object({
  samples: z
    .array(
      z.object({
        kind: z.enum(NOTIFICATION_KINDS),
        label: z.string().describe('The kind in words, as `{{kindLabel}}` renders it.'),
        title: z.string().describe('The title the channel would send: the template’s, or Warden’s own.'),
        body: z
          .string()
          .describe('The text the channel would send: the template’s, or Warden’s own (reason and facts).'),
      }),
    )
    .describe('A made-up event of every kind, rendered.'),
  fields: z.array(z.object({ name: z.string(), description: z.string() })).describe('The fields a template may use.'),
  limits: z
    .object({ title: z.number().int(), body: z.number().int() })
    .describe('The most characters of a rendered title and body; channels with smaller limits cut further.'),
});

export type TemplatePreview = z.infer<typeof templatePreviewSchema>;

export const previewTemplate = readVerb(templatePreviewInput, async (_ctx, { template }): Promise<TemplatePreview> => {
  const samples = sampleEvents().map((event) => {
    const sent = templated(event, template, 'text');
    return {
      kind: event.kind,
      label: KIND_LABELS[event.kind],
      title: sent.title,
      body: sent.message?.body ?? plainText(event, { title: false }),
    };
  });
  return { samples, fields: TEMPLATE_FIELDS.map((field) => ({ ...field })), limits: { ...TEMPLATE_OUTPUT } };
});
