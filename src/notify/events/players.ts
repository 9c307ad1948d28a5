// Player events, built from what the player rules found (domain/player-alerts.ts): an alert that held its time, its
// clearing, and a game's version or map changing. Pure; ingest hands the facts in and publishes what comes back.
import type { Monitor } from '../../domain/monitor.js';
import { stableEventId } from '../../domain/notification.js';
import type {
  GameChangeFact,
  LiveFacts,
  PlayerAlertFact,
  PlayerRule,
  PlayerRuleFact,
} from '../../domain/player-alerts.js';
import type { NotificationEvent } from '../channels/channel.js';
import { utc } from './format.js';
import type { OutboxItem } from './item.js';
import { formatDuration } from './monitors.js';

/** The monitor a player event is about, as the builders need it. */
export type PlayerMonitor = Pick<Monitor, 'id' | 'organizationId' | 'key' | 'name' | 'type' | 'state'>;

/**
 * The item one fact calls for. Ids are stable per monitor, rule and spell (`players:<monitor>:<rule>:<since>`, and
 * `:ok` for its clearing; `game:<monitor>:<field>:<at>`), so a commit retried by another process is the same event.
 */
export function playerItem(monitor: PlayerMonitor, fact: PlayerAlertFact): OutboxItem {
  const base = { organizationId: monitor.organizationId, subject: { monitorId: monitor.id, pageIds: null } };
  if (fact.kind === 'changed')
    return {
      ...base,
      event: {
        id: gameChangeId(monitor.id, fact),
        kind: 'game.changed',
        at: fact.at,
        severity: 'info',
        ...changeWords(monitor.name, fact),
        monitor: monitorFields(monitor, null),
        gameChange: { field: fact.field, from: fact.from, to: fact.to },
      },
    };
  const ok = fact.kind === 'ok';
  return {
    ...base,
    event: {
      id: stableEventId('players', monitor.id, fact.rule, fact.since, ...(ok ? ['ok'] : [])),
      kind: ok ? 'players.ok' : 'players.alert',
      at: fact.at,
      severity: ok ? 'ok' : 'warning',
      title: ok ? clearedTitle(monitor.name, fact.rule, fact.live) : alertTitle(monitor.name, fact),
      reason: ok ? `It had held since ${utc(fact.since)}.` : alertReason(fact),
      monitor: monitorFields(monitor, fact.live),
      playerRule: { rule: fact.rule, since: fact.since },
    },
  };
}

/** The game.changed event's id, which is also the stored change's (a page's feed item's guid). */
export function gameChangeId(monitorId: string, fact: Pick<GameChangeFact, 'field' | 'at'>): string {
  return stableEventId('game', monitorId, fact.field, fact.at);
}

/** A version or map says what it changed to; a wipe, when it happened (from and to are ISO times). */
function changeWords(name: string, fact: GameChangeFact): { title: string; reason: string } {
  if (fact.field !== 'wipe')
    return { title: `${name}: ${fact.field} changed to ${fact.to}`, reason: `Was ${fact.from}.` };
  return {
    title: `${name} was wiped`,
    reason: `Wiped at ${utc(Date.parse(fact.to))}; the wipe before was at ${utc(Date.parse(fact.from))}.`,
  };
}

function monitorFields(monitor: PlayerMonitor, live: LiveFacts | null): NonNullable<NotificationEvent['monitor']> {
  return {
    id: monitor.id,
    key: monitor.key,
    name: monitor.name,
    type: monitor.type,
    state: monitor.state,
    previousState: monitor.state,
    downtimeMs: null,
    players: live ? { online: live.players, max: live.max } : null,
  };
}

function count(live: LiveFacts): string {
  return live.max === null ? `${live.players}` : `${live.players}/${live.max}`;
}

function alertTitle(name: string, fact: PlayerRuleFact): string {
  const held = formatDuration(fact.at - fact.since);
  if (fact.rule === 'full') return `${name} is full (${count(fact.live)}) for ${held}`;
  if (fact.rule === 'queue') return `${name} has a queue of ${fact.live.queue ?? 0} for ${held}`;
  if (fact.rule === 'empty') return `${name} is up but nobody has been on for ${held}`;
  return `${name} has ${count(fact.live)} players, outside its band, for ${held}`;
}

function alertReason({ rule, settings, since, usual }: PlayerRuleFact): string {
  if (rule === 'full') return `Full since ${utc(since)}.`;
  if (rule === 'empty')
    return `It answers, but with no players since ${utc(since)}; it usually has ${Math.round(usual ?? 0)} (the last 7 days).`;
  if (rule === 'queue') return `Above ${settings.queueAbove ?? 0} since ${utc(since)}.`;
  const { min, max } = settings.band ?? {};
  const band =
    min !== undefined && max !== undefined
      ? `${min} to ${max}`
      : min !== undefined
        ? `at least ${min}`
        : `at most ${max}`;
  return `The band is ${band} players; outside it since ${utc(since)}.`;
}

function clearedTitle(name: string, rule: PlayerRule, live: LiveFacts): string {
  if (rule === 'full') return `${name} is no longer full (${count(live)})`;
  if (rule === 'queue') return `${name}'s queue is down to ${live.queue ?? 0}`;
  if (rule === 'empty') return `${name} has players again (${count(live)})`;
  return `${name} is back within its player band (${count(live)})`;
}
