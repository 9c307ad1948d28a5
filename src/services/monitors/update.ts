// Changes a monitor created through the API (config-managed monitors answer 409); runners and pages showing it reload.
import { monitorPlacementIssues } from '../../config/file-schema.js';
import { type FieldIssue, ValidationError } from '../../domain/errors.js';
import { formatIssuePath } from '../../domain/issue-path.js';
import { probeDefinition } from '../../probes/registry.js';
import { pageIdsShowingMonitor } from '../../store/components.js';
import { findMonitorById, type Monitor, type MonitorSpec, monitorSpecChanged, updateMonitorSpec } from '../../store/monitors.js';
import { listRelays } from '../../store/relays.js';
import { refuseConfigManaged } from '../config-managed.js';
import type { ServiceDeps } from '../deps.js';
import { requireMonitor } from './require.js';
import type { MonitorPatchInput } from './schema.js';
import { type MonitorWithRelay, monitorWithRelay, REDACTED } from './view.js';

export async function updateMonitor(
  { db, bus, clock }: ServiceDeps,
  organizationId: string,
  id: string,
  patch: MonitorPatchInput,
): Promise<MonitorWithRelay> {
  const now = clock.now();
  const { monitor, relayKeys, changed, pageIds } = await db.transaction().execute(async (trx) => {
    const current = await requireMonitor(trx, organizationId, id);
    refuseConfigManaged(current, `monitor "${current.key}"`);
    const relays = await listRelays(trx, organizationId);
    const relayIds = new Map(relays.map((r) => [r.key, r.id]));
    const relayKeys = new Map(relays.map((r) => [r.id, r.key]));
    const spec = nextSpec(current, patch, relayIds, relayKeys);
    const changed = monitorSpecChanged(current, spec);
    if (changed) await updateMonitorSpec(trx, current.id, spec, 'api', now);
    const pageIds = changed ? await pageIdsShowingMonitor(trx, current.id) : [];
    return { monitor: (await findMonitorById(trx, current.id)) ?? current, relayKeys, changed, pageIds };
  });
  if (changed) {
    bus.publish({ type: 'monitors.changed', at: now, organizationId });
    for (const pageId of pageIds) bus.publish({ type: 'page.changed', at: now, pageId });
  }
  return monitorWithRelay(monitor, relayKeys);
}

/** The monitor after the patch, checked by the same rules as on create. */
function nextSpec(current: Monitor, patch: MonitorPatchInput, relayIds: Map<string, string>, relayKeys: Map<string, string>): MonitorSpec {
  const definition = probeDefinition(current.type);
  const issues: FieldIssue[] = [];
  const runOn = patch.runOn ?? current.runOn;
  if (!definition.runsOn.includes(runOn))
    issues.push({ path: 'runOn', message: `a ${current.type} monitor runs on ${definition.runsOn.join(' or ')}` });
  const currentRelay = current.relayId === null ? undefined : relayKeys.get(current.relayId);
  // Moving a monitor off its relay drops the relay without having to say so.
  const relay = patch.relay !== undefined ? (patch.relay ?? undefined) : runOn === 'relay' ? currentRelay : undefined;
  issues.push(...monitorPlacementIssues({ runOn, relay }, (key) => relayIds.has(key)));
  let config = current.config;
  if (patch.config !== undefined) {
    const parsed = definition.config.safeParse(mergeConfig(current.config, patch.config, definition.secrets));
    if (parsed.success) config = parsed.data as Record<string, unknown>;
    else issues.push(...parsed.error.issues.map((i) => ({ path: formatIssuePath(['config', ...i.path]), message: i.message })));
  }
  if (issues.length > 0) throw new ValidationError(issues);
  return {
    key: current.key,
    name: patch.name ?? current.name,
    type: current.type,
    config,
    intervalSec: patch.intervalSec ?? current.intervalSec,
    timeoutMs: patch.timeoutMs ?? current.timeoutMs,
    runOn,
    relayId: relay === undefined ? null : (relayIds.get(relay) ?? null),
    enabled: patch.enabled ?? current.enabled,
    retries: patch.retries ?? current.retries,
    degradedLatencyMs: patch.degradedLatencyMs === undefined ? current.degradedLatencyMs : patch.degradedLatencyMs,
  };
}

/** A shallow merge patch: null removes a field; a secret sent back as "[redacted]" keeps its stored value. */
function mergeConfig(stored: Record<string, unknown>, changes: Record<string, unknown>, secrets: readonly string[]): Record<string, unknown> {
  const out = { ...stored };
  for (const [field, value] of Object.entries(changes)) {
    if (value === REDACTED && secrets.includes(field)) continue;
    if (value === null) delete out[field];
    else out[field] = value;
  }
  return out;
}
