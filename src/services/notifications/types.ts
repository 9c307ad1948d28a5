// The notification channel types as the dashboard's forms need them: labels, secret and target fields, and JSON Schemas
// generated from the zod schemas the API validates with (the same way as GET /api/v1/monitor-types).
import { z } from 'zod';
import { CHANNEL_TYPES, channelDefinition } from '../../notify/channels/registry.js';
import { builtOnce, jsonSchemaField as jsonSchema, requestJsonSchema as toJsonSchema } from '../type-catalog.js';
import { EVENT_CHOICES } from './event-choices.js';
import { createConfigSchema, RULE_KINDS, rules } from './schema.js';

export const channelTypeSchema = z.object({
  id: z.enum(CHANNEL_TYPES),
  label: z.string().describe('The name a form shows, e.g. "Discord".'),
  secrets: z
    .array(z.string())
    .describe('Config fields holding secrets: the API shows them as "[redacted]"; a form should mask them.'),
  targets: z
    .array(z.string())
    .describe('Config fields saying where messages go: changing one needs the secrets again.'),
  generated: z
    .array(z.string())
    .describe(
      'Secret config fields a create may leave out: Warden generates the value and answers it once, as `secret` (a form says "leave empty to generate one").',
    ),
  config: jsonSchema.describe(
    "JSON Schema (2020-12) of the type's `config`, as a create sends it: descriptions, defaults, bounds.",
  ),
});

export const eventChoiceSchema = z.object({
  kind: z.enum(RULE_KINDS as [string, ...string[]]),
  label: z.string().describe('What a form calls it: "Monitor goes down".'),
  description: z.string().describe('A line of help.'),
});

export const channelTypesSchema = z.object({
  types: z.array(channelTypeSchema),
  rules: jsonSchema.describe('JSON Schema of `rules`, which every type shares: what a channel gets and when.'),
  events: z
    .array(eventChoiceSchema)
    .describe(
      'The kinds `rules.events` may list, each with a label and a line of help, for forms. A channel without `events` gets them all.',
    ),
});

export type ChannelTypes = z.infer<typeof channelTypesSchema>;

// A refinement (email's "a password needs a username") has no JSON Schema equivalent: the server's answer says it.
export const listChannelTypes = builtOnce((): ChannelTypes => {
  return {
    types: CHANNEL_TYPES.map((id) => {
      const definition = channelDefinition(id);
      return {
        id,
        label: definition.label,
        secrets: [...definition.secrets],
        targets: [...definition.targets],
        generated: definition.generatedSecret ? [definition.generatedSecret.field] : [],
        config: toJsonSchema(createConfigSchema(id)),
      };
    }),
    rules: toJsonSchema(rules),
    events: EVENT_CHOICES.map((choice) => ({ ...choice })),
  };
});
