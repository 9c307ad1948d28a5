// The monitor types as the dashboard's forms need them: labels, where each runs, and JSON Schemas generated from the zod schemas the API validates with.
import { z } from 'zod';
import { MONITOR_TYPES, RUN_ON } from '../../domain/monitor-type.js';
import { probeDefinition } from '../../probes/registry.js';
import { builtOnce, jsonSchemaField as jsonSchema, requestJsonSchema as toJsonSchema } from '../type-catalog.js';
import { monitorCommonFields } from './schema.js';

export const monitorTypeSchema = z.object({
  id: z.enum(MONITOR_TYPES),
  label: z.string().describe('The name a form shows, e.g. "Minecraft Java Edition server".'),
  runsOn: z
    .array(z.enum(RUN_ON))
    .describe('Where a monitor of this type can run; the first is the default of `runOn`.'),
  probed: z
    .boolean()
    .describe('False for push types: their results arrive as heartbeats, so "check now" and "test" do not apply.'),
  secrets: z
    .array(z.string())
    .describe('Config fields holding secrets: the API shows them as "[redacted]"; a form should mask them.'),
  config: jsonSchema.describe(
    "JSON Schema (2020-12) of the type's `config`, as a request sends it: descriptions, defaults, bounds.",
  ),
});

export const monitorTypesSchema = z.object({
  types: z.array(monitorTypeSchema),
  fields: jsonSchema.describe(
    'JSON Schema of the fields every type shares (key, name, relay, intervalSec, timeoutMs, enabled, retries, degradedLatencyMs, notify, tags, runOn).',
  ),
});

export type MonitorTypes = z.infer<typeof monitorTypesSchema>;

export const listMonitorTypes = builtOnce((): MonitorTypes => {
  const fields = z.object({
    ...monitorCommonFields,
    runOn: z
      .enum(RUN_ON)
      .optional()
      .describe("Where the monitor runs; one of the type's `runsOn`, the first by default."),
  });
  return {
    types: MONITOR_TYPES.map((id) => {
      const definition = probeDefinition(id);
      return {
        id,
        label: definition.label,
        runsOn: [...definition.runsOn],
        probed: definition.probe !== null,
        secrets: [...definition.secrets],
        config: toJsonSchema(definition.config),
      };
    }),
    fields: toJsonSchema(fields),
  };
});
