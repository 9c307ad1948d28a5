// A monitor's state changes, newest first, as ingest recorded them (and pause and resume); and the pause's own record.
import { z } from 'zod';
import { queryIntIn, reference } from '../../domain/fields.js';
import { newId } from '../../domain/ids.js';
import { type Monitor, SHOWN_STATES } from '../../domain/monitor.js';
import { parseInput, type ServiceContext } from '../context.js';
import { requireMonitor } from './read.js';

export const STATE_HISTORY_LIMIT = { default: 50, max: 200 } as const;

const CURSOR = /^(\d{1,15})\.(stc_[0-9a-z]{1,32})$/;

export const stateHistoryQuerySchema = z.object({
  limit: queryIntIn(1, STATE_HISTORY_LIMIT.max)
    .default(STATE_HISTORY_LIMIT.default)
    .describe('Changes per page, newest first.'),
  cursor: z
    .string()
    .max(100)
    .refine((value) => decodeStateCursor(value) !== undefined, { error: 'expected the nextCursor of a previous page' })
    .optional()
    .describe('The nextCursor of the previous page.'),
});
export const stateHistoryInput = stateHistoryQuerySchema.extend({ id: reference() });

export const stateChangeSchema = z.object({
  at: z.number().int().describe('When the monitor changed state (epoch ms).'),
  from: z.enum(SHOWN_STATES).describe('The state before; `paused` while the monitor was disabled.'),
  to: z.enum(SHOWN_STATES),
  message: z
    .string()
    .nullable()
    .describe(
      "Why: the failing check's error, the passing check's message, the latency rule, the silence, or paused/resumed.",
    ),
});

export const stateHistorySchema = z.object({
  monitorId: z.string(),
  changes: z.array(stateChangeSchema).describe('Newest first.'),
  nextCursor: z.string().nullable().describe('Pass as `cursor` for the next (older) page; null on the last page.'),
});

export type StateHistory = z.infer<typeof stateHistorySchema>;

/** Ingest records each change in the commit that derives it, so the history is exact: retries, probe flags, silences, pauses. */
export async function monitorStateHistory(
  ctx: ServiceContext,
  input: z.input<typeof stateHistoryInput>,
): Promise<StateHistory> {
  const { id, limit, cursor } = parseInput(stateHistoryInput, input);
  const monitor = await requireMonitor(ctx, { id });
  const before = cursor === undefined ? undefined : decodeStateCursor(cursor);
  const page = await ctx.store.monitorStates.listChanges(monitor.id, { limit: limit + 1, before });
  const changes = page.slice(0, limit);
  const last = changes.at(-1);
  return {
    monitorId: monitor.id,
    changes: changes.map(({ at, from, to, message }) => ({ at, from, to, message })),
    nextCursor:
      page.length > limit && last ? Buffer.from(`${last.at}.${last.id}`, 'latin1').toString('base64url') : null,
  };
}

function decodeStateCursor(cursor: string): { at: number; id: string } | undefined {
  const match = CURSOR.exec(Buffer.from(cursor, 'base64url').toString('latin1'));
  return match ? { at: Number(match[1]), id: match[2] as string } : undefined;
}

/**
 * Pausing (enabled → false) and resuming are changes of the state the dashboard shows: recorded in the writer's
 * transaction. Resuming returns to the state the monitor kept; its next result moves it from there.
 */
export async function recordPause(
  ctx: ServiceContext,
  monitor: Pick<Monitor, 'id' | 'state' | 'enabled'>,
  enabled: boolean,
): Promise<void> {
  if (enabled === monitor.enabled) return;
  const change = enabled
    ? { from: 'paused' as const, to: monitor.state, message: 'resumed' }
    : { from: monitor.state, to: 'paused' as const, message: 'paused' };
  await ctx.store.monitorStates.appendChanges([
    { id: newId('stc'), monitorId: monitor.id, at: ctx.clock.now(), ...change },
  ]);
}
