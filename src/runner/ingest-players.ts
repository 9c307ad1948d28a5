// Ingest's part in player alerts: each newer result of a monitor with `playerAlerts` moves its conditions' state (kept
// on the monitor's row, written with its state) and yields the facts, which the commit publishes once it has the rows.
import type { Monitor, MonitorStateRow } from '../domain/monitor.js';
import {
  evaluatePlayerAlerts,
  type LiveResult,
  type PlayerAlertFact,
  type PlayerAlerts,
  parsePlayerAlertState,
} from '../domain/player-alerts.js';
import { playerItem } from '../notify/events/players.js';
import type { NotificationPublisher } from '../notify/outbox/outbox.js';
import type { Store } from '../store/index.js';

/** The facts of one commit, per monitor, in the order of its results. */
export type PlayerFacts = Map<string, PlayerAlertFact[]>;

/** Moves `monitor`'s player-alert state by one result (the latest), adding what it found to `found`. */
export function applyPlayerAlerts(monitor: MonitorStateRow, result: LiveResult, found: PlayerFacts): void {
  if (monitor.playerAlerts === null) return;
  let settings: PlayerAlerts;
  try {
    settings = JSON.parse(monitor.playerAlerts) as PlayerAlerts;
  } catch {
    return;
  }
  const next = evaluatePlayerAlerts(settings, parsePlayerAlertState(monitor.playerAlertsState), result);
  monitor.playerAlertsState = JSON.stringify(next.state);
  if (next.facts.length > 0) found.set(monitor.id, [...(found.get(monitor.id) ?? []), ...next.facts]);
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
