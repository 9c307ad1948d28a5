// A monitor's row as the store reads and writes it: the mapping every monitor repository shares.
import type { Selectable } from 'kysely';
import type { LatestResult, Monitor, MonitorSpec } from '../../domain/monitor.js';
import type { MonitorType } from '../../domain/monitor-type.js';
import type { PlayerAlerts } from '../../domain/player-alerts.js';
import type { RecurrenceSlot } from '../../domain/recurrence.js';
import { parseLocationResults } from '../../domain/vantage.js';
import type { MonitorsTable } from '../tables.js';
import { fromColumns } from './rows.js';

/** The fields of a monitor's state read as they are stored (its last result aside). */
export const STATE_FIELDS = [
  'retries',
  'degradedLatencyMs',
  'state',
  'stateSince',
  'failureStreak',
  'lastCheckAt',
] as const;

export function toMonitor(r: Selectable<MonitorsTable>): Monitor {
  return {
    id: r.id,
    organizationId: r.organization_id,
    key: r.key,
    name: r.name,
    type: r.type as MonitorType,
    config: JSON.parse(r.config) as Record<string, unknown>,
    intervalSec: r.interval_sec,
    timeoutMs: r.timeout_ms,
    runOn: r.run_on,
    relayId: r.relay_id,
    pushTokenPrefix: r.push_token_prefix,
    enabled: r.enabled === 1,
    pausedAt: r.paused_at,
    ...fromColumns(r, STATE_FIELDS),
    lastResult: r.last_result === null ? null : (JSON.parse(r.last_result) as LatestResult),
    secretsSetAt: r.secrets_set_at,
    notify: notifyOf(r.notify),
    tags: JSON.parse(r.tags) as string[],
    playerAlerts: r.player_alerts === null ? null : (JSON.parse(r.player_alerts) as PlayerAlerts),
    expectedRestart: r.expected_restart === null ? null : (JSON.parse(r.expected_restart) as RecurrenceSlot[]),
    dependsOn: r.depends_on,
    locations: r.locations === null ? null : (JSON.parse(r.locations) as string[]),
    quorum: r.quorum,
    locationResults: parseLocationResults(r.location_results),
    managedBy: r.managed_by,
    createdAt: r.created_at,
    updatedAt: r.updated_at,
  };
}

/** The columns a monitor's spec sets. */
export function specColumns(spec: MonitorSpec) {
  return {
    key: spec.key,
    name: spec.name,
    type: spec.type,
    config: JSON.stringify(spec.config),
    interval_sec: spec.intervalSec,
    timeout_ms: spec.timeoutMs,
    run_on: spec.runOn,
    relay_id: spec.relayId,
    enabled: spec.enabled ? 1 : 0,
    retries: spec.retries,
    degraded_latency_ms: spec.degradedLatencyMs,
    // Left as it is when the spec does not say.
    notify: spec.notify === undefined ? undefined : storedNotify(spec.notify),
    tags: spec.tags === undefined ? undefined : JSON.stringify(spec.tags),
    player_alerts:
      spec.playerAlerts === undefined
        ? undefined
        : spec.playerAlerts === null
          ? null
          : JSON.stringify(spec.playerAlerts),
    expected_restart:
      spec.expectedRestart === undefined
        ? undefined
        : spec.expectedRestart === null
          ? null
          : JSON.stringify(spec.expectedRestart),
    depends_on: spec.dependsOn,
    locations:
      spec.locations === undefined
        ? undefined
        : spec.locations === null || spec.locations.length === 0
          ? null
          : JSON.stringify(spec.locations),
    quorum: spec.quorum,
  };
}

/** The channel keys a monitor or page names, as stored (JSON array; null: none). */
export function notifyOf(json: string | null): string[] | null {
  return json === null ? null : (JSON.parse(json) as string[]);
}

export function storedNotify(keys: readonly string[] | null): string | null {
  return keys === null || keys.length === 0 ? null : JSON.stringify(keys);
}
