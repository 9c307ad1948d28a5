// The outside view of a monitor (API, CLI): everything but its secrets, as a zod schema that the OpenAPI document shows too.
import { z } from 'zod';
import { expectedRestartSchema } from '../../domain/expected-restart.js';
import type { Monitor } from '../../domain/monitor.js';
import { CHECK_SOURCES, MONITOR_STATES, MONITOR_TYPES, RUN_ON } from '../../domain/monitor-type.js';
import { ownershipFields } from '../../domain/ownership.js';
import { playerAlertsSchema } from '../../domain/player-alerts.js';
import { probeDefinition } from '../../probes/registry.js';
import { monitorLocationFields, monitorLocations } from './locations-view.js';

export const REDACTED = '[redacted]';

/** What a check found, as the API shows it; `dataExamples` lists what `data` may hold. */
export const probeOutcomeFields = (dataExamples: string) => ({
  ok: z.boolean(),
  latencyMs: z.number().int().nullable(),
  message: z.string().nullable().describe('Short summary, e.g. "12/100 players · 1.21.4".'),
  error: z.string().nullable().describe('Why the check failed.'),
  data: z
    .record(z.string(), z.unknown())
    .nullable()
    .describe(`Live data from the probe: ${dataExamples} (type-specific).`),
});

export const latestResultSchema = z
  .object({
    checkedAt: z.number().int().describe('When the check ran (epoch ms).'),
    ...probeOutcomeFields('players, maxPlayers, version, motd, …'),
    source: z.enum(CHECK_SOURCES).describe('Who ran the check.'),
  })
  .describe('The latest result of the monitor.');

export const monitorViewSchema = z.object({
  id: z.string(),
  key: z.string(),
  name: z.string(),
  type: z.enum(MONITOR_TYPES),
  runOn: z.enum(RUN_ON).describe('Where the monitor runs.'),
  relayId: z.string().nullable().describe('The relay that runs it, when runOn is relay.'),
  intervalSec: z
    .number()
    .int()
    .nullable()
    .describe(
      'Seconds between checks; null for push monitors, which nothing checks on a schedule (a heartbeat waits config.graceSec for its next ping).',
    ),
  timeoutMs: z.number().int(),
  enabled: z.boolean(),
  pausedAt: z
    .number()
    .int()
    .nullable()
    .describe('When the monitor was paused (epoch ms): since when it is disabled; null while it is enabled.'),
  retries: z.number().int(),
  degradedLatencyMs: z.number().int().nullable(),
  config: z.record(z.string(), z.unknown()).describe(`The type's configuration; secret fields read "${REDACTED}".`),
  state: z.enum(MONITOR_STATES).describe('Current state.'),
  stateSince: z.number().int().describe('Since when the monitor has been in this state (epoch ms).'),
  latest: latestResultSchema.nullable(),
  pushTokenPrefix: z.string().nullable().describe('Push monitors: the visible start of the push token.'),
  notify: z.array(z.string()).nullable().describe('Keys of the notification channels this monitor names (null: none).'),
  tags: z.array(z.string()).describe('Labels the dashboard and `GET /api/v1/monitors?tag=` filter by.'),
  playerAlerts: playerAlertsSchema.nullable(),
  expectedRestart: expectedRestartSchema.nullable(),
  dependsOn: z
    .string()
    .nullable()
    .describe(
      'Key of the parent monitor this one depends on (null: none, or its relay\'s; docs/monitors.md, "Dependencies").',
    ),
  unreachable: z
    .string()
    .nullable()
    .describe(
      'Set while a parent (or a parent\'s parent) is down and this monitor is not up: "unreachable: <parent> is down". Its alerts are held back meanwhile.',
    ),
  managedBy: ownershipFields().managedBy,
});

export type MonitorView = z.infer<typeof monitorViewSchema>;

/** The API's view adds the relay's key next to its id. */
export const monitorWithRelaySchema = monitorViewSchema.extend({
  relayKey: z.string().nullable().describe('Key of the relay that runs it, when runOn is relay.'),
  ...monitorLocationFields,
});

export type MonitorWithRelay = z.infer<typeof monitorWithRelaySchema>;

function monitorView(monitor: Monitor, unreachable: string | null): MonitorView {
  return {
    id: monitor.id,
    key: monitor.key,
    name: monitor.name,
    type: monitor.type,
    runOn: monitor.runOn,
    relayId: monitor.relayId,
    intervalSec: monitor.runOn === 'push' ? null : monitor.intervalSec,
    timeoutMs: monitor.timeoutMs,
    enabled: monitor.enabled,
    pausedAt: monitor.enabled ? null : monitor.pausedAt,
    retries: monitor.retries,
    degradedLatencyMs: monitor.degradedLatencyMs,
    config: redactConfig(monitor.type, monitor.config),
    state: monitor.state,
    stateSince: monitor.stateSince,
    latest: monitor.lastResult,
    pushTokenPrefix: monitor.pushTokenPrefix,
    notify: monitor.notify,
    tags: monitor.tags,
    playerAlerts: monitor.playerAlerts,
    expectedRestart: monitor.expectedRestart,
    dependsOn: monitor.dependsOn,
    unreachable,
    managedBy: monitor.managedBy,
  };
}

/** `relayKeys` maps relay ids to keys; `unreachable` comes from the dependencies (dependencies.ts, unreachableOf). */
export function monitorWithRelay(
  monitor: Monitor,
  relayKeys: ReadonlyMap<string, string>,
  unreachable: string | null = null,
): MonitorWithRelay {
  return {
    ...monitorView(monitor, unreachable),
    relayKey: monitor.relayId === null ? null : (relayKeys.get(monitor.relayId) ?? null),
    ...monitorLocations(monitor, relayKeys),
  };
}

function redactConfig(type: Monitor['type'], config: Record<string, unknown>): Record<string, unknown> {
  const out = { ...config };
  for (const field of probeDefinition(type).secrets) if (out[field] !== undefined) out[field] = REDACTED;
  return out;
}
