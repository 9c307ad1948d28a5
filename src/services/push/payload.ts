// What a heartbeat may carry: the GET query and the POST body (docs/push.md), and how either becomes a check result.
import { z } from 'zod';
import { tooDeepMessage, valueNestsDeeper } from '../../domain/json-depth.js';
import { storableText } from '../../domain/storable-text.js';
import type { IngestInput } from '../../runner/ingest.js';
import { PUSH_LIMITS } from './limits.js';

const KNOWN_FIELDS = new Set(['status', 'msg', 'latency', 'players', 'maxPlayers', 'tps']);

const statusField = z.enum(['up', 'down'], { error: 'expected "up" or "down"' });
const msgField = z
  .string({ error: 'expected a string' })
  .max(PUSH_LIMITS.msgChars, { error: `expected at most ${PUSH_LIMITS.msgChars} characters` });
const intUpTo = (max: number, what: string) => {
  const message = `expected an integer from 0 to ${max}${what}`;
  return z.number({ error: message }).int({ error: message }).min(0, { error: message }).max(max, { error: message });
};

export const pushQuerySchema = z.object({
  status: statusField.optional().describe('up (the default) or down.'),
  msg: msgField.optional().describe('A message shown with the check; for a down ping, why.'),
  latency: z
    .string()
    .regex(/^\d{0,7}$/, { error: `expected an integer from 0 to ${PUSH_LIMITS.latencyMs} milliseconds` })
    .refine((v) => v === '' || Number(v) <= PUSH_LIMITS.latencyMs, {
      error: `expected an integer from 0 to ${PUSH_LIMITS.latencyMs} milliseconds`,
    })
    .optional()
    .describe('Latency in milliseconds, a whole number; empty means not measured.'),
});
export type PushQuery = z.infer<typeof pushQuerySchema>;

export const pushBodySchema = z
  .object(
    {
      status: statusField.nullish().describe('up (the default) or down.'),
      msg: msgField.nullish().describe('A message shown with the check; for a down ping, why.'),
      latency: intUpTo(PUSH_LIMITS.latencyMs, ' milliseconds').nullish().describe('Latency in milliseconds.'),
      players: intUpTo(PUSH_LIMITS.players, '')
        .nullish()
        .describe("Players online; shown on status pages like any game server's."),
      maxPlayers: intUpTo(PUSH_LIMITS.players, '').nullish().describe('Player capacity.'),
      tps: z
        .number({ error: `expected a number from 0 to ${PUSH_LIMITS.tps}` })
        .min(0, { error: `expected a number from 0 to ${PUSH_LIMITS.tps}` })
        .max(PUSH_LIMITS.tps, { error: `expected a number from 0 to ${PUSH_LIMITS.tps}` })
        .nullish()
        .describe('Server ticks per second.'),
    },
    { error: 'expected a JSON object' },
  )
  .catchall(z.unknown())
  .superRefine(checkExtras)
  .describe(
    `Extra properties are kept in the check's data: at most ${PUSH_LIMITS.extraProperties} of them, names of at most ${PUSH_LIMITS.extraNameChars} characters, ${PUSH_LIMITS.extraBytes} bytes of JSON in all.`,
  );
export type PushBody = z.infer<typeof pushBodySchema>;

export const pushAcceptedSchema = z.object({
  ok: z.literal(true),
  monitor: z.string().describe('Id of the monitor the ping was recorded for.'),
  state: z.enum(['up', 'degraded', 'down', 'unknown']).describe("The monitor's state after this ping."),
  checkedAt: z.number().int().describe('When the ping was recorded, epoch milliseconds.'),
});
export type PushAccepted = z.infer<typeof pushAcceptedSchema>;

/** A heartbeat, from either form, as the check result it records. */
export type HeartbeatResult = Pick<IngestInput, 'ok' | 'latencyMs' | 'message' | 'error' | 'data'>;

export function resultFromQuery(query: PushQuery): HeartbeatResult {
  return toResult(query.status, query.msg, query.latency ? Number(query.latency) : undefined, {});
}

export function resultFromBody(body: PushBody): HeartbeatResult {
  const data: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(body)) if (!KNOWN_FIELDS.has(name)) data[name] = value;
  if (body.players != null) data.players = body.players;
  if (body.maxPlayers != null) data.maxPlayers = body.maxPlayers;
  if (body.tps != null) data.tps = body.tps;
  return toResult(body.status, body.msg, body.latency, data);
}

function toResult(
  status: 'up' | 'down' | null | undefined,
  msg: string | null | undefined,
  latency: number | null | undefined,
  data: Record<string, unknown>,
): HeartbeatResult {
  const ok = status !== 'down';
  // A NUL would make PostgreSQL refuse the group commit this ping shares with others.
  const text = msg ? storableText(msg) : undefined;
  return {
    ok,
    latencyMs: latency ?? undefined,
    // A down ping's message is why it is down: it goes where a failed probe's error goes.
    message: ok ? text : undefined,
    error: ok ? undefined : (text ?? 'the sender reported down'),
    data: Object.keys(data).length > 0 ? data : undefined,
  };
}

function checkExtras(body: Record<string, unknown>, ctx: z.RefinementCtx): void {
  const extras = Object.keys(body).filter((name) => !KNOWN_FIELDS.has(name));
  if (extras.length === 0) return;
  if (extras.length > PUSH_LIMITS.extraProperties)
    ctx.addIssue({
      code: 'custom',
      path: [],
      message: `expected at most ${PUSH_LIMITS.extraProperties} extra properties, got ${extras.length}`,
    });
  for (const name of extras)
    if (name.length > PUSH_LIMITS.extraNameChars)
      ctx.addIssue({
        code: 'custom',
        path: [name.slice(0, PUSH_LIMITS.extraNameChars)],
        message: `property names are at most ${PUSH_LIMITS.extraNameChars} characters`,
      });
  const extraData = Object.fromEntries(extras.map((name) => [name, body[name]]));
  // Measured before JSON.stringify, which recurses: a value nested thousands deep would overflow the stack.
  if (valueNestsDeeper(extraData)) {
    ctx.addIssue({ code: 'custom', path: [], message: tooDeepMessage() });
    return;
  }
  const bytes = Buffer.byteLength(JSON.stringify(extraData));
  if (bytes > PUSH_LIMITS.extraBytes)
    ctx.addIssue({
      code: 'custom',
      path: [],
      message: `extra properties take at most ${PUSH_LIMITS.extraBytes} bytes of JSON, got ${bytes}`,
    });
}
