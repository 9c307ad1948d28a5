// Changes a monitor through the API (a merge of the fields given; config-managed monitors answer 409); runners and pages follow.
import { type FieldIssue, ValidationError } from '../../domain/errors.js';
import {
  type Monitor,
  type MonitorSpec,
  monitorLocationIssues,
  monitorPlacementIssues,
  monitorSpecChanged,
} from '../../domain/monitor.js';
import { probeDefinition } from '../../probes/registry.js';
import { writerFor, writeVerb } from '../context.js';
import { namedChannels } from '../notifications/named.js';
import { secretsSetTime } from '../relays/secrets.js';
import { checkMonitorParent } from './dependencies.js';
import { locationKey } from './locations-view.js';
import { relayKeysById, requireMonitor } from './read.js';
import { keptFromStorage, patchedConfig, retargetIssues } from './retarget.js';
import { type MonitorPatch, monitorUpdateSchema } from './schema.js';
import { recordPause } from './state-history.js';
import { type MonitorWithRelay, monitorWithRelay } from './view.js';
import { announce, locationIds, relayIdsByKey } from './write.js';

export const updateMonitor = writeVerb(
  monitorUpdateSchema,
  async (tx, { id, ...changes }): Promise<MonitorWithRelay> => {
    const current = await requireMonitor(tx, { id });
    const writer = writerFor(tx, current, `monitor "${current.key}"`);
    const [relayIds, relayKeys] = await Promise.all([relayIdsByKey(tx), relayKeysById(tx)]);
    const notify = changes.notify === undefined ? current.notify : ((await namedChannels(tx, changes.notify)) ?? null);
    const spec = { ...patched(current, changes, relayIds, relayKeys), notify };
    if (spec.dependsOn !== current.dependsOn || spec.relayId !== current.relayId)
      await checkMonitorParent(tx, { key: current.key, dependsOn: spec.dependsOn ?? null, relayId: spec.relayId });
    const specChanged = monitorSpecChanged(current, spec);
    if (specChanged) await tx.store.monitors.updateSpec(current.id, spec, writer, tx.clock.now());
    await recordPause(tx, current, spec.enabled);
    // Secrets sent in full are the caller's own: a relay whose token was rotated through the API may have them again.
    if (secretsSentInFull(spec, changes.config))
      await tx.store.monitors.markSecretsSet(current.id, await secretsSetTime(tx, spec.relayId));
    if (specChanged) await announce(tx, current);
    return monitorWithRelay((await tx.store.monitors.findById(current.id)) ?? current, relayKeys);
  },
);

/** The monitor after the patch, checked by the same rules as on create. */
function patched(
  current: Monitor,
  patch: MonitorPatch,
  relayIds: Map<string, string>,
  relayKeys: Map<string, string>,
): MonitorSpec {
  const definition = probeDefinition(current.type);
  const issues: FieldIssue[] = [];
  const runOn = patch.runOn ?? current.runOn;
  if (!definition.runsOn.includes(runOn))
    issues.push({ path: 'runOn', message: `a ${current.type} monitor runs on ${definition.runsOn.join(' or ')}` });
  const currentRelay = current.relayId === null ? undefined : relayKeys.get(current.relayId);
  // Moving a monitor off its relay drops the relay without having to say so.
  const relay = patch.relay !== undefined ? (patch.relay ?? undefined) : runOn === 'relay' ? currentRelay : undefined;
  issues.push(...monitorPlacementIssues({ runOn, relay }, (key) => relayIds.has(key)));
  const locations =
    patch.locations !== undefined ? patch.locations : current.locations?.map((l) => locationKey(l, relayKeys));
  const quorum = patch.quorum !== undefined ? patch.quorum : current.quorum;
  issues.push(...monitorLocationIssues({ runOn, relay, locations, quorum }, (key) => relayIds.has(key)));
  const config = patchedConfig(definition.config, current.config, patch.config, definition.secrets, issues);
  const relayId = relay === undefined ? null : (relayIds.get(relay) ?? null);
  issues.push(...retargetIssues(definition, current, { config, relayId }, patch.config));
  if (issues.length > 0) throw new ValidationError(issues);
  return {
    key: current.key,
    name: patch.name ?? current.name,
    type: current.type,
    config,
    intervalSec: patch.intervalSec ?? current.intervalSec,
    timeoutMs: patch.timeoutMs ?? current.timeoutMs,
    runOn,
    relayId,
    enabled: patch.enabled ?? current.enabled,
    retries: patch.retries ?? current.retries,
    degradedLatencyMs: patch.degradedLatencyMs === undefined ? current.degradedLatencyMs : patch.degradedLatencyMs,
    tags: patch.tags ?? current.tags,
    playerAlerts: patch.playerAlerts === undefined ? current.playerAlerts : patch.playerAlerts,
    expectedRestart: patch.expectedRestart === undefined ? current.expectedRestart : patch.expectedRestart,
    dependsOn: patch.dependsOn === undefined ? current.dependsOn : patch.dependsOn,
    locations: locationIds(locations, relayIds),
    quorum,
  };
}

/** Every secret the monitor now holds was in the patch itself (not "[redacted]", not left out). */
function secretsSentInFull(spec: MonitorSpec, patchConfig: Record<string, unknown> | undefined): boolean {
  return probeDefinition(spec.type).secrets.every(
    (field) => spec.config[field] === undefined || !keptFromStorage(patchConfig?.[field]),
  );
}
