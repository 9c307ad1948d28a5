// Inputs of the notification channel verbs: one shape per channel type (from the channel registry), as warden.yaml and the API write them.
import { z } from 'zod';
import { intIn, queryIntIn, reference, stableKey, text } from '../../domain/fields.js';
import { LIMITS, RULE_LIMITS } from '../../domain/limits.js';
import { type ChannelDefinition, NOTIFICATION_KINDS } from '../../notify/channels/channel.js';
import { CHANNEL_TYPES, type ChannelType, channelDefinition } from '../../notify/channels/registry.js';
import { REDACTED } from '../monitors/view.js';

/** The kinds a channel may ask for (`test` is always sent when asked for). */
export const RULE_KINDS = NOTIFICATION_KINDS.filter((kind) => kind !== 'test') as RuleKind[];
export type RuleKind = Exclude<(typeof NOTIFICATION_KINDS)[number], 'test'>;

export const DELIVERY_LIMITS = { default: 50, max: 500 } as const;

const L = RULE_LIMITS;

/** A channel's rules: its scope (events, monitors, pages, groups) and its timing (hold, reminders, maintenance, flapping, TLS). */
export const rules = z
  .object({
    events: z
      .array(z.enum(RULE_KINDS as [string, ...string[]], { error: `expected one of ${RULE_KINDS.join(', ')}` }))
      .max(RULE_KINDS.length)
      .optional()
      .describe('The event kinds this channel gets; every kind when absent.'),
    monitors: z
      .array(stableKey())
      .max(LIMITS.monitorsPerOrganization)
      .optional()
      .describe(
        'Scope: keys of the monitors whose events this channel gets (for relay events: a monitor on the relay).',
      ),
    pages: z
      .array(stableKey())
      .max(L.pages)
      .optional()
      .describe(
        `Scope: slugs of the pages whose monitors, incidents and maintenance this channel gets (at most ${L.pages}).`,
      ),
    groups: z
      .array(text(200))
      .max(L.groups)
      .optional()
      .describe(
        `Scope: component groups (a component's \`group\`) whose monitors, incidents and maintenance this channel gets (at most ${L.groups}).`,
      ),
    holdSec: intIn(L.holdSec.min, L.holdSec.max, ' seconds')
      .optional()
      .describe(
        `Send a monitor's down, degraded or recovered only once the state has held this long (${L.holdSec.min} to ${L.holdSec.max} s; 0 or absent: at once).`,
      ),
    remindEveryMin: intIn(L.remindEveryMin.min, L.remindEveryMin.max, ' minutes')
      .optional()
      .describe(
        `While a monitor stays down, remind every this many minutes (${L.remindEveryMin.min} to ${L.remindEveryMin.max}; absent: never).`,
      ),
    quietDuringMaintenance: z
      .boolean()
      .optional()
      // Shown as the default in the JSON Schemas (forms, `warden config schema`) without being written into stored rules.
      .meta({ default: true })
      .describe(
        'Nothing about a monitor whose component is under maintenance (recorded as skipped); true unless set to false.',
      ),
    flap: z
      .object({
        changes: intIn(L.flapChanges.min, L.flapChanges.max)
          .default(L.flapChanges.default)
          .describe(
            `State changes within windowMin that make a monitor flapping (${L.flapChanges.min} to ${L.flapChanges.max}, default ${L.flapChanges.default}).`,
          ),
        windowMin: intIn(L.flapWindowMin.min, L.flapWindowMin.max, ' minutes')
          .default(L.flapWindowMin.default)
          .describe(
            `The window in minutes (${L.flapWindowMin.min} to ${L.flapWindowMin.max}, default ${L.flapWindowMin.default}); flapping ends after this long without a change.`,
          ),
      })
      .strict()
      .optional()
      .describe(
        'Flap damping: one monitor.flapping message instead of each change, quiet until stable, then a summary (absent: off).',
      ),
    tlsDays: intIn(L.tlsDays.min, L.tlsDays.max, ' days')
      .optional()
      .describe(
        `tls.expiring this many days before a certificate expires (${L.tlsDays.min} to ${L.tlsDays.max}, default ${L.tlsDays.default}).`,
      ),
  })
  .strict();

export const channelFields = {
  key: stableKey().describe(
    'The channel by this key: in the API path, in warden.yaml, in `warden notifications test KEY`.',
  ),
  name: text(200),
  enabled: z.boolean().describe('A disabled channel gets nothing but tests.'),
  rules: rules.describe(
    'What the channel gets and when: all events of everything at once by default (docs/notifications.md, "Rules").',
  ),
};

/**
 * The type's config as the API's create takes it: a secret Warden generates (the webhook's signing secret) may be left
 * out. warden.yaml takes the type's own config, which requires it.
 */
export function createConfigSchema(type: ChannelType): ChannelDefinition['config'] {
  const definition = channelDefinition(type);
  const generated = definition.generatedSecret;
  if (!generated || !(definition.config instanceof z.ZodObject)) return definition.config;
  // Its description stays the field's own: the same JSON Schema draws the form that changes a channel, which does not
  // generate one.
  const field = (definition.config as z.ZodObject).shape[generated.field] as z.ZodType;
  return (definition.config as z.ZodObject).extend({
    [generated.field]: field.optional(),
  }) as unknown as ChannelDefinition['config'];
}

function channelVariant<T extends ChannelType>(type: T, origin: 'file' | 'api') {
  const definition = channelDefinition(type);
  const config = origin === 'api' ? createConfigSchema(type) : definition.config;
  return z
    .object({
      key: channelFields.key,
      name: channelFields.name,
      type: z.literal(type),
      config: config.describe(
        `The ${definition.label} configuration. Secret fields: ${definition.secrets.join(', ') || 'none'}.`,
      ),
      rules: channelFields.rules.default({}),
      enabled: channelFields.enabled.default(true),
    })
    .strict();
}

type Variant = ReturnType<typeof channelVariant>;

function channelUnion(origin: 'file' | 'api') {
  const variants: Variant[] = CHANNEL_TYPES.map((type) => channelVariant(type, origin));
  return z.discriminatedUnion('type', variants as unknown as [Variant, ...Variant[]], {
    error: (issue) => (issue.code === 'invalid_union' ? `expected one of ${CHANNEL_TYPES.join(', ')}` : undefined),
  });
}

/** A channel as warden.yaml declares it: one shape per type, chosen by `type`; every secret set. */
export const channelEntrySchema = channelUnion('file');

/** A channel as the API's POST creates it: as in warden.yaml, but a secret Warden generates may be left out. */
export const channelCreateSchema = channelUnion('api');

/** The type and key stay; `config` is merged into the stored one and then checked by the type's schema. */
export const channelPatchSchema = z
  .object({
    name: channelFields.name.optional(),
    config: z
      .record(z.string(), z.unknown())
      .optional()
      .describe(
        `Fields of the type's configuration to change: merged into the current one (null removes a field, "${REDACTED}" keeps a secret as it is while no target field such as the URL changes), then checked like on create.`,
      ),
    rules: channelFields.rules.optional(),
    enabled: channelFields.enabled.optional(),
  })
  .strict();

export const channelKeySchema = z.object({ key: reference() });
export const channelUpdateSchema = channelPatchSchema.extend({ key: reference() });

export const deliveriesQuerySchema = z.object({
  limit: queryIntIn(1, DELIVERY_LIMITS.max)
    .default(DELIVERY_LIMITS.default)
    .describe(`Deliveries to return, newest first (at most ${DELIVERY_LIMITS.max}).`),
});
export const deliveriesInput = deliveriesQuerySchema.extend({ key: reference() });

export type ChannelEntry = z.output<typeof channelEntrySchema>;
export type ChannelPatch = z.output<typeof channelPatchSchema>;
