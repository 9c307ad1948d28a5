// The messages of the organization's live stream (WS /api/v1/live), as zod schemas: the one description docs/live.md and tests read.
import { z } from 'zod';
import type { Monitor } from '../../domain/monitor.js';
import { MONITOR_STATES, MONITOR_TYPES } from '../../domain/monitor-type.js';

const at = z.number().int().describe('epoch milliseconds: when the server sent the message');

export const liveMonitorSchema = z.object({
  id: z.string(),
  key: z.string(),
  name: z.string(),
  type: z.enum(MONITOR_TYPES),
  state: z.enum([...MONITOR_STATES, 'paused']).describe('The monitor state, or `paused` while it is disabled.'),
  since: z
    .number()
    .int()
    .describe('Since when the monitor has been in its state (epoch ms); for `paused`, since it was paused.'),
  checkedAt: z.number().int().nullable().describe('Its latest result (epoch ms); null before the first.'),
  ok: z.boolean().nullable(),
  latencyMs: z.number().int().nullable(),
  message: z.string().nullable().describe('The latest result’s summary, or why it failed.'),
});

export const organizationSnapshotMessageSchema = z
  .object({
    type: z.literal('snapshot'),
    at,
    monitors: z.array(liveMonitorSchema).describe('Every monitor of the organization, by key.'),
  })
  .describe(
    'Sent first on every connection, and again when monitors are created, changed or deleted. Replace everything you hold.',
  );

export const organizationMonitorMessageSchema = z
  .object({
    type: z.literal('monitor'),
    at,
    monitor: liveMonitorSchema,
    previousState: liveMonitorSchema.shape.state.describe(
      'The state the stream last told of; equal to monitor.state when only the latest result moved.',
    ),
  })
  .describe("A monitor's state or latest result changed (typically after each check).");

export const organizationLiveMessageSchema = z
  .discriminatedUnion('type', [organizationSnapshotMessageSchema, organizationMonitorMessageSchema])
  .describe('One text frame of the organization stream: a JSON object with `type` and `at` (epoch ms).');

export type LiveMonitor = z.infer<typeof liveMonitorSchema>;
export type OrganizationLiveMessage = z.infer<typeof organizationLiveMessageSchema>;

export function liveMonitor(monitor: Monitor): LiveMonitor {
  const latest = monitor.lastResult;
  return {
    id: monitor.id,
    key: monitor.key,
    name: monitor.name,
    type: monitor.type,
    state: monitor.enabled ? monitor.state : 'paused',
    // Paused, it has been in that state since it was paused.
    since: monitor.enabled ? monitor.stateSince : (monitor.pausedAt ?? monitor.stateSince),
    checkedAt: latest?.checkedAt ?? null,
    ok: latest?.ok ?? null,
    latencyMs: latest?.latencyMs ?? null,
    message: latest ? (latest.ok ? latest.message : (latest.error ?? latest.message)) : null,
  };
}
