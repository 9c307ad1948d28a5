// Alerts on a game server's live data: full for a while, a queue above a number, players outside a band, and changes of
// version, map or wipe. Pure: the previous condition state, a result and the settings in; the new state and the facts out.
import { z } from 'zod';
import { intIn } from './fields.js';

export const PLAYER_RULES = ['full', 'queue', 'band', 'empty'] as const;
export type PlayerRule = (typeof PLAYER_RULES)[number];
export const GAME_CHANGE_FIELDS = ['version', 'map', 'wipe'] as const;
export type GameChangeField = (typeof GAME_CHANGE_FIELDS)[number];

/**
 * A field's value in a result's data, as compared and announced: `version` and `map` as the probe gives them; `wipe`
 * from `wipedAt` (epoch ms, where the probe knows the last wipe: a Rust server's `born` keyword), as an ISO 8601 time.
 */
export function gameValueOf(field: GameChangeField, data: Record<string, unknown>): string | null {
  if (field === 'wipe') {
    const at = data.wipedAt;
    return typeof at === 'number' && Number.isFinite(at) && at > 0 ? new Date(at).toISOString() : null;
  }
  const value = data[field];
  return typeof value === 'string' && value !== '' ? value : null;
}

/** The usual players (the average of the last 7 days' hourly averages) from which an empty server is news. */
export const USUAL_PLAYERS_MIN = 3;
/** How far back the usual players are averaged. */
export const USUAL_PLAYERS_DAYS = 7;

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
    emptyFromUsual: z
      .boolean()
      .optional()
      .describe(
        `Alert once the server answers with no players for \`forMin\` while it usually has ${USUAL_PLAYERS_MIN} or more (the last ${USUAL_PLAYERS_DAYS} days).`,
      ),
    forMin: intIn(1, 1440, ' minutes')
      .optional()
      .describe(`Minutes outside the band or above the queue before the alert (default ${DEFAULT_PLAYER_FOR_MIN}).`),
    changes: z
      .array(z.enum(GAME_CHANGE_FIELDS))
      .max(GAME_CHANGE_FIELDS.length)
      .optional()
      .describe(
        'Announce a change of these fields of the result (game.changed): version, map, or wipe (where the probe knows the last wipe: Rust over A2S).',
      ),
  })
  .describe(
    'Alerts on the players, queue, version, map and wipe a game server reports (docs/monitors.md, "Player alerts").',
  );

export type PlayerAlerts = z.infer<typeof playerAlertsSchema>;

/** A condition that holds: since when, and whether its alert went out. */
export interface HeldCondition {
  since: number;
  alerted: boolean;
  /** `empty`: the usual players when the spell began. */
  usual?: number;
}

/** What is kept per monitor between results (stored as JSON, so a restart neither re-fires nor forgets). */
export interface PlayerAlertState {
  held: Partial<Record<PlayerRule, HeldCondition>>;
  /** The version, map and wipe of the latest successful result that had them. */
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
  /** `empty`: the usual players it dropped from. */
  usual?: number | undefined;
}

/** A game field changed between two successful results (`wipe`: from and to are ISO 8601 times). */
export interface GameChangeFact {
  kind: 'changed';
  field: GameChangeField;
  from: string;
  to: string;
  at: number;
}

export type PlayerAlertFact = PlayerRuleFact | GameChangeFact;

/** A game change as kept (ingest writes it with its event; the id is the event's): what pages and feeds announce. */
export interface GameChange {
  id: string;
  organizationId: string;
  monitorId: string;
  field: GameChangeField;
  from: string;
  to: string;
  at: number;
}

/** How much of the game changes is kept and shown: a page announces the recent ones, never a history. */
export const GAME_CHANGE_LIMITS = {
  /** Changes kept per monitor; older ones go as new ones are written. */
  keptPerMonitor: 20,
  /** Changes older than this are pruned (retention). */
  keptDays: 30,
  /** A page announces the changes of this long ago at most… */
  shownForMs: 24 * 60 * 60 * 1000,
  /** …and at most this many, newest first. */
  shownPerPage: 10,
} as const;

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
  usual: number | null = null,
): { state: PlayerAlertState; facts: PlayerAlertFact[] } {
  const facts: PlayerAlertFact[] = [];
  const live = result.ok ? liveFactsOf(result.data) : null;
  const held: PlayerAlertState['held'] = {};
  for (const rule of PLAYER_RULES) {
    const previous = state.held[rule];
    // An empty spell, once begun, lasts while nobody is on: the usual players are read only to begin one.
    const stillEmpty = rule === 'empty' && previous !== undefined && live?.players === 0;
    const holds = live ? stillEmpty || conditionHolds(rule, settings, live, usual) : previous !== undefined;
    if (!holds) {
      if (previous?.alerted && live)
        facts.push({ kind: 'ok', rule, since: previous.since, at: result.at, live, settings });
      continue;
    }
    const condition: HeldCondition = previous ?? { since: result.at, alerted: false };
    if (!previous && rule === 'empty' && usual !== null) condition.usual = usual;
    const holdMs = holdMinutes(rule, settings) * 60_000;
    if (!condition.alerted && live && result.at - condition.since >= holdMs) {
      const fact: PlayerRuleFact = { kind: 'alert', rule, since: condition.since, at: result.at, live, settings };
      if (condition.usual !== undefined) fact.usual = condition.usual;
      facts.push(fact);
      held[rule] = { ...condition, alerted: true };
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
    const value = gameValueOf(field, result.data);
    if (value === null) continue;
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

function conditionHolds(rule: PlayerRule, settings: PlayerAlerts, live: LiveFacts, usual: number | null): boolean {
  if (rule === 'full')
    return settings.fullForMin !== undefined && live.max !== null && live.max > 0 && live.players >= live.max;
  if (rule === 'queue')
    return settings.queueAbove !== undefined && live.queue !== null && live.queue > settings.queueAbove;
  if (rule === 'empty')
    return settings.emptyFromUsual === true && live.players === 0 && usual !== null && usual >= USUAL_PLAYERS_MIN;
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
