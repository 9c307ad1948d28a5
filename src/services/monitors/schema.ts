// Inputs of the monitor verbs: one shape per monitor type (from the probe registry), as warden.yaml and the API write them.
import { z } from 'zod';
import { queryIntIn, reference } from '../../domain/fields.js';
import { MONITOR_LIMITS } from '../../domain/limits.js';
import { monitorFields } from '../../domain/monitor.js';
import { MONITOR_TYPES, type MonitorType, RUN_ON, type RunOn } from '../../domain/monitor-type.js';
import { unknownFieldError } from '../../domain/unknown-fields.js';
import { probeDefinition } from '../../probes/registry.js';
import { API_LIMITS } from '../api-limits.js';
import { REDACTED } from './view.js';

/** The fields every type shares, with their defaults, as a monitor body writes them (a type adds `type`, `runOn` and `config`). */
export const monitorCommonFields = {
  key: monitorFields.key,
  name: monitorFields.name,
  relay: monitorFields.relay.optional(),
  intervalSec: monitorFields.intervalSec.default(MONITOR_LIMITS.intervalSec.default),
  timeoutMs: monitorFields.timeoutMs.default(MONITOR_LIMITS.timeoutMs.default),
  enabled: monitorFields.enabled.default(true),
  retries: monitorFields.retries.default(MONITOR_LIMITS.retries.default),
  degradedLatencyMs: monitorFields.degradedLatencyMs.optional(),
  notify: monitorFields.notify.optional(),
  tags: monitorFields.tags.default([]),
  playerAlerts: monitorFields.playerAlerts.optional(),
  expectedRestart: monitorFields.expectedRestart.optional(),
  dependsOn: monitorFields.dependsOn.optional(),
  locations: monitorFields.locations.optional(),
  quorum: monitorFields.quorum.optional(),
};

/** Fields of a monitor's answer that its body writes under another name. */
const ANSWER_FIELDS = { relayId: 'relay', relayKey: 'relay', locationStates: 'locations' } as const;
const unknownField = unknownFieldError(ANSWER_FIELDS);

function monitorVariant<T extends MonitorType>(type: T) {
  const definition = probeDefinition(type);
  const places = definition.runsOn as readonly [RunOn, ...RunOn[]];
  return z
    .object(
      {
        ...monitorCommonFields,
        type: z.literal(type),
        runOn: z
          .enum(places as [RunOn, ...RunOn[]], { error: `a ${type} monitor runs on ${places.join(' or ')}` })
          .default(places[0])
          .describe(`Where the monitor runs: ${places.join(', ')}.`),
        pushToken: monitorFields.pushToken.optional(),
        // Push-only types may omit config entirely when all its fields have defaults.
        config: definition.probe === null ? definition.config.prefault({}) : definition.config,
      },
      { error: unknownField },
    )
    .strict();
}

type Variant = ReturnType<typeof monitorVariant>;

/** A union discriminated by `type`, with one message listing the types when `type` is wrong. */
function monitorUnion<V extends z.ZodObject>(variants: V[]) {
  return z.discriminatedUnion('type', variants as unknown as [V, ...V[]], {
    error: (issue) => (issue.code === 'invalid_union' ? `expected one of ${MONITOR_TYPES.join(', ')}` : undefined),
  });
}

const variants: Variant[] = MONITOR_TYPES.map((type) => monitorVariant(type));

/** A monitor as warden.yaml declares it: a push monitor's token may be fixed there. */
export const monitorEntrySchema = monitorUnion(variants).refine(
  (m) => m.pushToken === undefined || m.runOn === 'push',
  {
    path: ['pushToken'],
    error: 'only allowed for push monitors',
  },
);

/** The API's body: the same, without `pushToken` (Warden issues push tokens itself). */
export const monitorCreateSchema = monitorUnion(variants.map((variant) => variant.omit({ pushToken: true })));

/** The type and key stay; `config` is merged into the stored one and then checked by the type's schema. */
export const monitorPatchSchema = z
  .object(
    {
      name: monitorFields.name.optional(),
      runOn: z.enum(RUN_ON).optional().describe("Where the monitor runs; one of the type's places."),
      relay: monitorFields.relay.nullable().optional(),
      intervalSec: monitorFields.intervalSec.optional(),
      timeoutMs: monitorFields.timeoutMs.optional(),
      enabled: monitorFields.enabled.optional(),
      retries: monitorFields.retries.optional(),
      degradedLatencyMs: monitorFields.degradedLatencyMs.nullable().optional(),
      notify: monitorFields.notify
        .nullable()
        .optional()
        .describe('Keys of the notification channels this monitor names; null or [] names none.'),
      tags: monitorFields.tags.optional().describe('The tags, replacing the current ones; [] removes them all.'),
      playerAlerts: monitorFields.playerAlerts.nullable().optional(),
      expectedRestart: monitorFields.expectedRestart.nullable().optional().describe('null removes it.'),
      dependsOn: monitorFields.dependsOn
        .nullable()
        .optional()
        .describe("Key of the parent monitor; null removes it (the relay's parent, if any, applies again)."),
      locations: monitorFields.locations
        .nullable()
        .optional()
        .describe('The other places it runs, replacing the current ones; null or [] leaves its own place only.'),
      quorum: monitorFields.quorum.nullable().optional().describe('null: a majority of the voting locations.'),
      config: z
        .record(z.string(), z.unknown())
        .optional()
        .describe(
          `Fields of the type's configuration to change: merged into the current one (null removes a field, "${REDACTED}" keeps a secret as it is), then checked like on create.`,
        ),
    },
    { error: unknownField },
  )
  .strict();

export const monitorIdSchema = z.object({ id: reference() });
export const monitorUpdateSchema = monitorPatchSchema.extend({ id: reference() });
/** A monitor by id (API) or by key (CLI). */
export const monitorRefSchema = z.union([
  z.object({ id: reference() }).strict(),
  z.object({ key: reference() }).strict(),
]);

const CURSOR = /^(\d{1,15})\.(\d{1,15})$/;

export const historyQuerySchema = z.object({
  hours: queryIntIn(API_LIMITS.historyHours.min, API_LIMITS.historyHours.max)
    .default(API_LIMITS.historyHours.default)
    .describe(
      `The window: the last N hours (${API_LIMITS.historyHours.min} to ${API_LIMITS.historyHours.max}). Buckets are hourly up to ${API_LIMITS.hourlyBucketsUpToHours} hours, daily beyond.`,
    ),
  limit: queryIntIn(1, API_LIMITS.historyChecks.max)
    .default(API_LIMITS.historyChecks.default)
    .describe('Raw checks per page, newest first.'),
  cursor: z
    .string()
    .max(64)
    .refine((value) => decodeCursor(value) !== undefined, { error: 'expected the nextCursor of a previous page' })
    .optional()
    .describe('The nextCursor of the previous page.'),
});

export const monitorHistoryInput = historyQuerySchema.extend({ id: reference() });

export function encodeCursor(check: { checkedAt: number; id: number }): string {
  return Buffer.from(`${check.checkedAt}.${check.id}`, 'latin1').toString('base64url');
}

export function decodeCursor(cursor: string): { checkedAt: number; id: number } | undefined {
  const match = CURSOR.exec(Buffer.from(cursor, 'base64url').toString('latin1'));
  return match ? { checkedAt: Number(match[1]), id: Number(match[2]) } : undefined;
}

export type MonitorEntry = z.output<typeof monitorEntrySchema>;
export type MonitorPatch = z.output<typeof monitorPatchSchema>;
