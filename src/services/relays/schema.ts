// Inputs of the relay verbs, built from the same fields as warden.yaml's relays.
import { z } from 'zod';
import { reference, stableKey, text } from '../../domain/fields.js';

export const relayFields = {
  key: stableKey().describe('Monitors name their relay by this key.'),
  name: text(200),
  token: z
    .string()
    .regex(/^wdr_[A-Za-z0-9_-]{16,128}$/, { error: 'expected a relay token starting with wdr_' })
    .describe('Optional: fix the relay token (use ${ENV_VAR}); otherwise issue one with `warden relays token`.'),
  dependsOn: stableKey().describe(
    'Key of a monitor every monitor this relay runs depends on, unless it names its own (docs/monitors.md, "Dependencies").',
  ),
};

export const relayCreateSchema = z
  .object({ key: relayFields.key, name: relayFields.name, dependsOn: relayFields.dependsOn.optional() })
  .strict();

/** A relay as warden.yaml declares it: created or replaced by key. */
export const relayEntrySchema = z
  .object({
    key: relayFields.key,
    name: relayFields.name,
    token: relayFields.token.optional(),
    dependsOn: relayFields.dependsOn.optional(),
  })
  .strict();

/** The key stays (monitors name their relay by it). */
export const relayPatchSchema = z
  .object({
    name: relayFields.name.optional(),
    dependsOn: relayFields.dependsOn.nullable().optional().describe('Key of the parent monitor; null removes it.'),
  })
  .strict();

export const relayIdSchema = z.object({ id: reference() });
export const relayUpdateSchema = relayPatchSchema.extend({ id: reference() });
/** A relay by id (API) or by key (CLI). */
export const relayRefSchema = z.union([
  z.object({ id: reference() }).strict(),
  z.object({ key: reference() }).strict(),
]);
