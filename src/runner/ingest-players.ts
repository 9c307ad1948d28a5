// Ingest's part in player alerts: each newer result of a monitor with `playerAlerts` moves its conditions' state (kept
// on the monitor's row, written with its state) and yields the facts, which the commit publishes once it has the rows.
import type { Monitor, MonitorStateRow } from '../domain/monitor.js';
import {
  evaluatePlayerAlerts,
  type GameChange,
  type LiveResult,
  liveFactsOf,
  type PlayerAlertFact,
  type PlayerAlerts,
  parsePlayerAlertState,
  USUAL_PLAYERS_DAYS,
} from '../domain/player-alerts.js';
import { gameChangeId, playerItem } from '../notify/events/players.js';
import type { NotificationPublisher } from '../notify/outbox/outbox.js';
import type { Store } from '../store/index.js';
import type { IngestInput, IngestSilence } from './ingest.js';

/** The facts of one commit, per monitor, in the order of its results. */
export type PlayerFacts = Map<string, PlayerAlertFact[]>;

/** Moves `monitor`'s player-alert state by one result (the latest), adding what it found to `found`. */
export function applyPlayerAlerts(
  monitor: MonitorStateRow,
  result: LiveResult,
  found: PlayerFacts,
  usual: number | null,
): void {
  const settings = settingsOf(monitor);
  // Alerts removed: their spells end with them, so ones set again later start afresh.
  if (!settings) {
    monitor.playerAlertsState = null;
    return;
  }
  const next = evaluatePlayerAlerts(settings, parsePlayerAlertState(monitor.playerAlertsState), result, usual);
  monitor.playerAlertsState = JSON.stringify(next.state);
  if (next.facts.length > 0) found.set(monitor.id, [...(found.get(monitor.id) ?? []), ...next.facts]);
}

function settingsOf(monitor: MonitorStateRow): PlayerAlerts | null {
  if (monitor.playerAlerts === null) return null;
  try {
    return JSON.parse(monitor.playerAlerts) as PlayerAlerts;
  } catch {
    return null;
  }
}

/**
 * The usual players (the mean of the hourly averages of the last 7 days) of the monitors that may begin an empty spell
 * in this batch: `emptyFromUsual` set, a passing result with no players, no spell already begun. Read only then, so a
 * server with players costs no query.
 */
export async function usualPlayers(
  tx: Store,
  monitors: ReadonlyMap<string, MonitorStateRow>,
  inputs: readonly (IngestInput | IngestSilence)[],
  now: number,
): Promise<Map<string, number>> {
  const ids = usualPlayerIds(monitors, inputs);
  if (ids.size === 0) return new Map();
  const sums = new Map<string, { sum: number; n: number }>();
  for (const b of await tx.checks.buckets('hour', [...ids], now - USUAL_PLAYERS_DAYS * 86_400_000, now)) {
    if (b.playersAvg === null) continue;
    const s = sums.get(b.monitorId) ?? { sum: 0, n: 0 };
    sums.set(b.monitorId, { sum: s.sum + b.playersAvg, n: s.n + 1 });
  }
  return new Map([...sums].map(([id, s]) => [id, s.sum / s.n]));
}

/** The monitors of the batch whose usual players `usualPlayers` reads: none, most of the time. */
export function usualPlayerIds(
  monitors: ReadonlyMap<string, MonitorStateRow>,
  inputs: readonly (IngestInput | IngestSilence)[],
): Set<string> {
  const ids = new Set<string>();
  for (const input of inputs) {
    const monitor = monitors.get(input.monitorId);
    if (!monitor || input.kind === 'silence' || !input.ok || !settingsOf(monitor)?.emptyFromUsual) continue;
    if (liveFactsOf(input.data ?? null)?.players !== 0) continue;
    if (parsePlayerAlertState(monitor.playerAlertsState).held.empty === undefined) ids.add(monitor.id);
  }
  return ids;
}

/**
 * Stores the commit's game changes (what a page announcing them reads) on its transaction, with the id of their
 * game.changed event; the page is rebuilt by the result's own monitor.checked.
 */
export async function recordGameChanges(
  tx: Store,
  found: PlayerFacts,
  monitors: ReadonlyMap<string, Pick<MonitorStateRow, 'organizationId'>>,
): Promise<void> {
  const changes: GameChange[] = [];
  for (const [monitorId, facts] of found) {
    const organizationId = monitors.get(monitorId)?.organizationId;
    if (organizationId === undefined) continue;
    for (const fact of facts) {
      if (fact.kind !== 'changed') continue;
      const { field, from, to, at } = fact;
      changes.push({ id: gameChangeId(monitorId, fact), organizationId, monitorId, field, from, to, at });
    }
  }
  if (changes.length > 0) await tx.gameChanges.record(changes);
}

/** Publishes the commit's player events on its transaction; the monitors are read for their names and state. */
export async function publishPlayerFacts(
  tx: Store,
  outbox: NotificationPublisher,
  found: PlayerFacts,
  now: number,
): Promise<number> {
  if (found.size === 0) return 0;
  const monitors = new Map<string, Monitor>((await tx.monitors.findByIds([...found.keys()])).map((m) => [m.id, m]));
  const items = [...found].flatMap(([id, facts]) => {
    const monitor = monitors.get(id);
    return monitor ? facts.map((fact) => playerItem(monitor, fact)) : [];
  });
  return outbox.publish(tx, items, now);
}
