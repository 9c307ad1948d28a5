// The relay protocol's shapes and limits, shared by the server's /api/relay routes and the relay agent.
import { z } from 'zod';
import { JSON_MAX_DEPTH, tooDeepMessage, valueNestsDeeper } from '../domain/json-depth.js';
import { MONITOR_TYPES } from '../domain/monitor-type.js';
import { RESULT_LIMITS } from '../probes/run.js';
import { RETENTION_DEFAULTS } from '../runner/retention.js';

const DAY_MS = 86_400_000;

/** Every limit of the relay protocol, documented in docs/relay.md. */
export const RELAY_LIMITS = {
  /** Results in one POST /api/relay/results; a larger batch is answered 413. */
  resultsPerBatch: 1000,
  /** Bytes of one POST /api/relay/results body; a larger body is answered 413. */
  batchBytes: 1024 * 1024,
  /** Arrays and objects inside one another in one result (its `data` one level less); a deeper result is rejected alone. */
  resultDepth: JSON_MAX_DEPTH,
  /** Characters of a result id. */
  resultIdChars: 64,
  messageChars: RESULT_LIMITS.messageChars,
  errorChars: RESULT_LIMITS.errorChars,
  /** Bytes of a result's data, as JSON. */
  dataBytes: RESULT_LIMITS.dataBytes,
  latencyMs: 3_600_000,
  /** How far a result's checkedAt may be ahead of the server's clock (clock skew); later is rejected. */
  futureSkewMs: 60_000,
  /** Results checked longer ago are rejected: the server keeps raw checks this long (WARDEN_CHECK_RETENTION_DAYS' default). */
  maxAgeMs: RETENTION_DEFAULTS.checkDays * DAY_MS,
  /** How often a relay should poll its config (it gets 304 when nothing changed). */
  configPollSec: 60,
  /** Bytes of a config response the agent reads at most. */
  configBytes: 8 * 1024 * 1024,
} as const;

const RESULT_ID = /^[A-Za-z0-9_-]+$/;
const intUpTo = (max: number, what: string) => {
  const message = `expected an integer from 0 to ${max}${what}`;
  return z.number({ error: message }).int({ error: message }).min(0, { error: message }).max(max, { error: message });
};

/** One probe result as a relay submits it: a probe's result with its monitorId, and the optional id, checkedAt and degraded (docs/relay.md). */
export const relayResultSchema = z.object({
  id: z
    .string({ error: 'expected a string' })
    .min(1, { error: 'must not be empty' })
    .max(RELAY_LIMITS.resultIdChars, { error: `expected at most ${RELAY_LIMITS.resultIdChars} characters` })
    .regex(RESULT_ID, { error: 'expected letters, digits, "-" or "_"' })
    .optional()
    .describe(
      'Chosen by the relay, unique per monitor. A result whose id is already stored is acknowledged (counted as a duplicate) and not stored again.',
    ),
  monitorId: z.string({ error: 'expected the id of a monitor assigned to this relay' }).min(1).max(64),
  ok: z.boolean({ error: 'expected true or false' }).describe('Whether the check passed.'),
  latencyMs: intUpTo(RELAY_LIMITS.latencyMs, ' milliseconds').nullish(),
  message: z
    .string({ error: 'expected a string' })
    .max(RELAY_LIMITS.messageChars, { error: `expected at most ${RELAY_LIMITS.messageChars} characters` })
    .nullish(),
  error: z
    .string({ error: 'expected a string' })
    .max(RELAY_LIMITS.errorChars, { error: `expected at most ${RELAY_LIMITS.errorChars} characters` })
    .nullish(),
  data: z
    .record(z.string(), z.unknown(), { error: 'expected an object' })
    .superRefine((data, ctx) => {
      // Measured before JSON.stringify, which recurses: data nested thousands deep would overflow the stack.
      if (valueNestsDeeper(data, RELAY_LIMITS.resultDepth - 1))
        ctx.addIssue({ code: 'custom', message: tooDeepMessage(RELAY_LIMITS.resultDepth - 1) });
      else if (JSON.stringify(data).length > RELAY_LIMITS.dataBytes)
        ctx.addIssue({ code: 'custom', message: `expected at most ${RELAY_LIMITS.dataBytes} bytes of JSON` });
    })
    .nullish()
    .describe('Live data shown on status pages: players, maxPlayers, version, …'),
  degraded: z
    .boolean({ error: 'expected true or false' })
    .optional()
    .describe('The check passed but the service is degraded (e.g. fewer players than minPlayers).'),
  checkedAt: z
    .number({ error: 'expected epoch milliseconds' })
    .int({ error: 'expected epoch milliseconds' })
    .min(0, { error: 'expected epoch milliseconds' })
    .optional()
    .describe(
      'When the check ran (epoch ms); defaults to when the server receives it. Lets a relay deliver results late. Rejected when more than 60 s in the future or older than the check retention (30 days).',
    ),
});
export type RelayResult = z.infer<typeof relayResultSchema>;

export const resultsRequestSchema = z.object({
  results: z
    .array(relayResultSchema)
    .max(RELAY_LIMITS.resultsPerBatch)
    .describe(`At most ${RELAY_LIMITS.resultsPerBatch} results and ${RELAY_LIMITS.batchBytes} bytes per request.`),
});
/** What the server checks before looking at each result: malformed results are rejected one by one, not the batch. */
export const resultsEnvelopeSchema = z.object({
  results: z.array(z.unknown(), { error: 'expected an array of results' }),
});

export const resultsResponseSchema = z.object({
  accepted: z.number().int().describe('Results stored now or already stored before (duplicates included).'),
  duplicates: z.number().int().describe('Accepted results whose id was already stored; they were not stored again.'),
  rejected: z
    .array(
      z.object({
        index: z.number().int().describe('Position of the result in the submitted array.'),
        reason: z.string().describe('Why it was not stored; resubmitting it will not help.'),
      }),
    )
    .describe(
      'Results not stored: malformed, for a monitor not assigned to this relay, or checked at an impossible time.',
    ),
});
export type ResultsResponse = z.infer<typeof resultsResponseSchema>;

export const relayMonitorSchema = z.object({
  id: z.string(),
  key: z.string(),
  name: z.string(),
  type: z.string().describe(`The monitor type: one of ${MONITOR_TYPES.filter((t) => t !== 'heartbeat').join(', ')}.`),
  config: z
    .record(z.string(), z.unknown())
    .describe(
      "The type's config, secrets included (they are sent to this relay only), except those named in secretsWithheld.",
    ),
  intervalSec: z.number().int().positive(),
  timeoutMs: z.number().int().positive(),
  secretsWithheld: z
    .array(z.string())
    .optional()
    .describe(
      "Present when the relay token was rotated through the API after this monitor's secrets were set: the secret config fields left out. The agent reports the monitor failed (not probed) until they are sent again.",
    ),
});
export type RelayMonitor = z.infer<typeof relayMonitorSchema>;

/** The error a relay reports, instead of probing, for a monitor whose secrets are withheld. */
export const SECRETS_WITHHELD_ERROR =
  "secrets withheld: the relay token was rotated through the API; send this monitor's secrets again";

export const relayConfigSchema = z.object({
  relay: z.object({ id: z.string(), key: z.string(), name: z.string() }),
  monitors: z.array(relayMonitorSchema).describe('The enabled monitors assigned to this relay, by id.'),
  limits: z.object({
    resultsPerBatch: z.number().int(),
    batchBytes: z.number().int(),
    configPollSec: z.number().int(),
  }),
});
export type RelayConfig = z.infer<typeof relayConfigSchema>;
