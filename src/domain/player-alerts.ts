// Alerts on a game server's live data: full for a while, a queue above a number, players outside a band, and changes of
// version or map. Pure: the previous condition state, a result and the settings in; the new state and the facts out.
import { z } from 'zod';
import { intIn } from './fields.js';

export const PLAYER_RULES = ['full', 'queue', 'band'] as const;
export type PlayerRule = (typeof PLAYER_RULES)[number];
export const GAME_CHANGE_FIELDS = ['version', 'map'] as const;
export type GameChangeField = (typeof GAME_CHANGE_FIELDS)[number];

/** Minutes outside the band (and above the queue) before the alert, when `forMin` is not given. */
export const DEFAULT_PLAYER_FOR_MIN = 5;

export const playerAlertsSchema = z
  .strictObject({
    fullForMin: intIn(1, 1440, ' minutes').optional().describe('Alert once the server has been full this long.'),
    queueAbove: intIn(0, 100_000).optional().describe('Alert once the queue has stayed above this for `forMin`.'),
    band: z
      .strictObject({ min: z.number().int().min(0).optional(), max: z.number().int().min(0).optional() })
      .refine((b) => b.min === undefined || b.max === undefined || b.min <= b.max, { error: 'min must not exceed max' })
      .optional()
      .describe('Alert once the players have stayed below min or above max for `forMin`.'),
    forMin: intIn(1, 1440, ' minutes')
      .optional()
      .describe(`Minutes outside the band or above the queue before the alert (default ${DEFAULT_PLAYER_FOR_MIN}).`),
    changes: z
      .array(z.enum(GAME_CHANGE_FIELDS))
      .max(GAME_CHANGE_FIELDS.length)
      .optional()
      .describe('Announce a change of these fields of the result (game.changed).'),
  })
  .describe('Alerts on the players, queue, version and map a game server reports (docs/monitors.md, "Player alerts").');

export type PlayerAlerts = z.infer<typeof playerAlertsSchema>;

/** A condition that holds: since when, and whether its alert went out. */
export interface HeldCondition {
  since: number;
  alerted: boolean;
}

/** What is kept per monitor between results (stored as JSON, so a restart neither re-fires nor forgets). */
export interface PlayerAlertState {
  held: Partial<Record<PlayerRule, HeldCondition>>;
  /** The version and map of the latest successful result that had them. */
  last: Partial<Record<GameChangeField, string>>;
}

export const EMPTY_PLAYER_ALERT_STATE: PlayerAlertState = { held: {}, last: {} };

/** What the live data of one result tells. */
export interface LiveFacts {
  players: number;
  max: number | null;
  queue: number | null;
}

/** A rule's condition held its time (`alert`) or, having alerted, no longer holds (`ok`). */
export interface PlayerRuleFact {
  kind: 'alert' | 'ok';
  rule: PlayerRule;
  since: number;
  at: number;
  live: LiveFacts;
  settings: PlayerAlerts;
}

export type PlayerAlertFact =
  | PlayerRuleFact
  | { kind: 'changed'; field: GameChangeField; from: string; to: string; at: number };

/** A result as the rules read it. */
export interface LiveResult {
  at: number;
  ok: boolean;
  data: Record<string, unknown> | null;
}

/**
 * The next state and the facts to announce. A result that does not tell the players (a failed check, no data) leaves
 * the conditions as they are: the down alert speaks for a server that does not answer.
 */
export function evaluatePlayerAlerts(
  settings: PlayerAlerts,
  state: PlayerAlertState,
  result: LiveResult,
): { state: PlayerAlertState; facts: PlayerAlertFact[] } {
  const facts: PlayerAlertFact[] = [];
  const live = result.ok ? liveFactsOf(result.data) : null;
  const held: PlayerAlertState['held'] = {};
  for (const rule of PLAYER_RULES) {
    const previous = state.held[rule];
    const holds = live ? conditionHolds(rule, settings, live) : previous !== undefined;
    if (!holds) {
      if (previous?.alerted && live)
        facts.push({ kind: 'ok', rule, since: previous.since, at: result.at, live, settings });
      continue;
    }
    const condition = previous ?? { since: result.at, alerted: false };
    const holdMs = holdMinutes(rule, settings) * 60_000;
    if (!condition.alerted && live && result.at - condition.since >= holdMs) {
      facts.push({ kind: 'alert', rule, since: condition.since, at: result.at, live, settings });
      held[rule] = { since: condition.since, alerted: true };
    } else held[rule] = condition;
  }
  return { state: { held, last: nextLast(settings, state, result, facts) }, facts };
}

function nextLast(
  settings: PlayerAlerts,
  state: PlayerAlertState,
  result: LiveResult,
  facts: PlayerAlertFact[],
): PlayerAlertState['last'] {
  if (!result.ok || !result.data) return state.last;
  const last = { ...state.last };
  for (const field of GAME_CHANGE_FIELDS) {
    const value = result.data[field];
    if (typeof value !== 'string' || value === '') continue;
    const before = state.last[field];
    if (before !== undefined && before !== value && settings.changes?.includes(field))
      facts.push({ kind: 'changed', field, from: before, to: value, at: result.at });
    last[field] = value;
  }
  return last;
}

function holdMinutes(rule: PlayerRule, settings: PlayerAlerts): number {
  if (rule === 'full') return settings.fullForMin ?? 0;
  return settings.forMin ?? DEFAULT_PLAYER_FOR_MIN;
}

function conditionHolds(rule: PlayerRule, settings: PlayerAlerts, live: LiveFacts): boolean {
  if (rule === 'full')
    return settings.fullForMin !== undefined && live.max !== null && live.max > 0 && live.players >= live.max;
  if (rule === 'queue')
    return settings.queueAbove !== undefined && live.queue !== null && live.queue > settings.queueAbove;
  const band = settings.band;
  if (!band) return false;
  return (band.min !== undefined && live.players < band.min) || (band.max !== undefined && live.players > band.max);
}

/** Players, the maximum and the queue: `players` a number (with `maxPlayers`) or { online, max }; `queue` a number. */
export function liveFactsOf(data: Record<string, unknown> | null): LiveFacts | null {
  if (!data) return null;
  const queue = typeof data.queue === 'number' ? data.queue : null;
  const players = data.players;
  if (typeof players === 'number')
    return { players, max: typeof data.maxPlayers === 'number' ? data.maxPlayers : null, queue };
  if (players && typeof players === 'object') {
    const p = players as { online?: unknown; max?: unknown };
    if (typeof p.online === 'number')
      return { players: p.online, max: typeof p.max === 'number' ? p.max : null, queue };
  }
  return null;
}

/** The stored state, or the empty one when there is none or it does not parse. */
export function parsePlayerAlertState(json: string | null): PlayerAlertState {
  if (!json) return EMPTY_PLAYER_ALERT_STATE;
  try {
    const parsed = JSON.parse(json) as Partial<PlayerAlertState>;
    return { held: parsed.held ?? {}, last: parsed.last ?? {} };
  } catch {
    return EMPTY_PLAYER_ALERT_STATE;
  }
}
