// Request bodies and queries of the monitor API: the variants of warden.yaml's monitors (one per type, from the probe registry).
import { z } from 'zod';
import { monitorFields, monitorUnion, monitorVariants } from '../../config/file-schema.js';
import { RUN_ON } from '../../domain/monitor-type.js';
import { API_LIMITS } from '../api-limits.js';
import { REDACTED } from './view.js';

/** The same body as a monitor in warden.yaml, but without `pushToken`: Warden issues push tokens itself. */
export const monitorCreateSchema = monitorUnion(monitorVariants.map((variant) => variant.omit({ pushToken: true })));

/** The type and key stay; `config` is merged into the stored one and then checked by the type's schema. */
export const monitorPatchSchema = z
  .object({
    name: monitorFields.name.optional(),
    runOn: z.enum(RUN_ON).optional().describe("Where the monitor runs; one of the type's places."),
    relay: monitorFields.relay.nullable().optional(),
    intervalSec: monitorFields.intervalSec.optional(),
    timeoutMs: monitorFields.timeoutMs.optional(),
    enabled: monitorFields.enabled.optional(),
    retries: monitorFields.retries.optional(),
    degradedLatencyMs: monitorFields.degradedLatencyMs.nullable().optional(),
    config: z
      .record(z.string(), z.unknown())
      .optional()
      .describe(
        `Fields of the type's configuration to change: merged into the current one (null removes a field, "${REDACTED}" keeps a secret as it is), then checked like on create.`,
      ),
  })
  .strict();

const hoursMessage = `expected an integer from ${API_LIMITS.historyHours.min} to ${API_LIMITS.historyHours.max}`;
const limitMessage = `expected an integer from 1 to ${API_LIMITS.historyChecks.max}`;
const CURSOR = /^(\d{1,15})\.(\d{1,15})$/;

export const historyQuerySchema = z.object({
  hours: z.coerce
    .number({ error: hoursMessage })
    .int({ error: hoursMessage })
    .min(API_LIMITS.historyHours.min, { error: hoursMessage })
    .max(API_LIMITS.historyHours.max, { error: hoursMessage })
    .default(API_LIMITS.historyHours.default)
    .describe(
      `The window: the last N hours (${API_LIMITS.historyHours.min} to ${API_LIMITS.historyHours.max}). Buckets are hourly up to ${API_LIMITS.hourlyBucketsUpToHours} hours, daily beyond.`,
    ),
  limit: z.coerce
    .number({ error: limitMessage })
    .int({ error: limitMessage })
    .min(1, { error: limitMessage })
    .max(API_LIMITS.historyChecks.max, { error: limitMessage })
    .default(API_LIMITS.historyChecks.default)
    .describe('Raw checks per page, newest first.'),
  cursor: z
    .string()
    .max(64)
    .optional()
    .transform((value, ctx) => {
      if (value === undefined) return undefined;
      const match = CURSOR.exec(Buffer.from(value, 'base64url').toString('latin1'));
      if (match) return { checkedAt: Number(match[1]), id: Number(match[2]) };
      ctx.addIssue({ code: 'custom', message: 'expected the nextCursor of a previous page' });
      return z.NEVER;
    })
    .describe('The nextCursor of the previous page.'),
});

export function encodeCursor(check: { checkedAt: number; id: number }): string {
  return Buffer.from(`${check.checkedAt}.${check.id}`, 'latin1').toString('base64url');
}

export type MonitorCreateInput = z.output<typeof monitorCreateSchema>;
export type MonitorPatchInput = z.output<typeof monitorPatchSchema>;
export type HistoryQuery = z.output<typeof historyQuerySchema>;
