// The outside view of a monitor (API, CLI): everything but its secrets.
import { probeDefinition } from '../../probes/registry.js';
import type { Monitor } from '../../store/monitors.js';

export const REDACTED = '[redacted]';

export interface MonitorView {
  id: string;
  key: string;
  name: string;
  type: Monitor['type'];
  runOn: Monitor['runOn'];
  relayId: string | null;
  intervalSec: number;
  timeoutMs: number;
  enabled: boolean;
  retries: number;
  degradedLatencyMs: number | null;
  config: Record<string, unknown>;
  state: Monitor['state'];
  stateSince: number;
  latest: Monitor['lastResult'];
  pushTokenPrefix: string | null;
  managedBy: Monitor['managedBy'];
}

export function monitorView(monitor: Monitor): MonitorView {
  return {
    id: monitor.id,
    key: monitor.key,
    name: monitor.name,
    type: monitor.type,
    runOn: monitor.runOn,
    relayId: monitor.relayId,
    intervalSec: monitor.intervalSec,
    timeoutMs: monitor.timeoutMs,
    enabled: monitor.enabled,
    retries: monitor.retries,
    degradedLatencyMs: monitor.degradedLatencyMs,
    config: redactConfig(monitor.type, monitor.config),
    state: monitor.state,
    stateSince: monitor.stateSince,
    latest: monitor.lastResult,
    pushTokenPrefix: monitor.pushTokenPrefix,
    managedBy: monitor.managedBy,
  };
}

export function redactConfig(type: Monitor['type'], config: Record<string, unknown>): Record<string, unknown> {
  const out = { ...config };
  for (const field of probeDefinition(type).secrets) if (out[field] !== undefined) out[field] = REDACTED;
  return out;
}
