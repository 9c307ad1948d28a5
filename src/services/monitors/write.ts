// Creates and deletes monitors, and puts warden.yaml's: one path for the API and the file, with the same caps, checks and events.
import { ConflictError, ValidationError } from '../../domain/errors.js';
import { newId } from '../../domain/ids.js';
import { LIMITS } from '../../domain/limits.js';
import {
  type Monitor,
  type MonitorSpec,
  monitorLocationIssues,
  monitorPlacementIssues,
  monitorSpecChanged,
  type StoredToken,
} from '../../domain/monitor.js';
import { assertWritable } from '../../domain/ownership.js';
import { displayPrefix, generateSecret, hashSecret } from '../../domain/tokens.js';
import { EDGE_LOCATION } from '../../domain/vantage.js';
import { organizationOf, type ServiceContext, uniquely, writerFor, writerOf, writeVerb } from '../context.js';
import { namedChannels } from '../notifications/named.js';
import type { PutOutcome } from '../put.js';
import { secretsSetTime, withheldSecrets } from '../relays/secrets.js';
import { checkMonitorParent } from './dependencies.js';
import { relayKeysById, requireMonitor } from './read.js';
import { type MonitorEntry, monitorCreateSchema, monitorEntrySchema, monitorIdSchema } from './schema.js';
import { recordPause } from './state-history.js';
import { type MonitorWithRelay, monitorWithRelay } from './view.js';

/** A monitor through the API; a push monitor's token is generated and returned once. */
export const createMonitor = writeVerb(
  monitorCreateSchema,
  async (tx, entry): Promise<{ monitor: MonitorWithRelay; pushToken: string | null }> => {
    const relayIds = await relayIdsByKey(tx);
    const spec = { ...specOf(entry, relayIds), notify: (await namedChannels(tx, entry.notify)) ?? null };
    await checkMonitorParent(tx, { key: spec.key, dependsOn: spec.dependsOn ?? null, relayId: spec.relayId });
    const pushToken = entry.runOn === 'push' ? generateSecret('pushToken') : null;
    const monitor = await insertMonitor(tx, spec, pushToken === null ? null : storedToken(pushToken));
    return { monitor: monitorWithRelay(monitor, await relayKeysById(tx)), pushToken };
  },
);

/**
 * warden.yaml's monitor, by key: created, or made to match the file (and taken over when the API made it). A push
 * token the file fixes is used; a push monitor without one gets a generated token, returned this once
 * (`generatedPushToken`: only its hash is stored).
 */
export const putMonitor = writeVerb(
  monitorEntrySchema,
  async (tx, entry): Promise<{ monitor: Monitor; outcome: PutOutcome; generatedPushToken: string | null }> => {
    const spec = { ...specOf(entry, await relayIdsByKey(tx)), notify: (await namedChannels(tx, entry.notify)) ?? null };
    const current = await tx.store.monitors.findByKey(organizationOf(tx), entry.key);
    const fixed = entry.pushToken === undefined ? undefined : storedToken(entry.pushToken);
    if (fixed) {
      const holder = await tx.store.monitors.findByPushTokenHash(fixed.hash);
      if (holder && holder.id !== current?.id)
        throw new ConflictError(`the push token of monitor "${entry.key}" is already used by another monitor`);
    }
    const wantsToken = entry.runOn === 'push';
    if (!current) {
      const generated = wantsToken && !fixed ? generateSecret('pushToken') : null;
      const token = wantsToken ? (fixed ?? storedToken(generated as string)) : null;
      const monitor = await insertMonitor(tx, spec, token);
      return { monitor, outcome: 'created', generatedPushToken: generated };
    }
    const writer = writerFor(tx, current, `monitor "${current.key}"`);
    const now = tx.clock.now();
    let changed = false;
    if (monitorSpecChanged(current, spec) || current.managedBy !== writer) {
      await tx.store.monitors.updateSpec(current.id, spec, writer, now);
      await recordPause(tx, current, spec.enabled);
      changed = true;
    }
    // The file holds the secrets in full: what it writes, or finds withheld from its relay, counts as set now.
    if (changed || (await withheldFromRelay(tx, { ...current, type: spec.type, config: spec.config }, spec.relayId))) {
      await tx.store.monitors.markSecretsSet(current.id, await secretsSetTime(tx, spec.relayId));
      changed = true;
    }
    const stored = await tx.store.monitors.pushTokenHash(current.id);
    const generatedPushToken = wantsToken && !fixed && stored === null ? generateSecret('pushToken') : null;
    const token = !wantsToken
      ? null
      : (fixed ?? (generatedPushToken === null ? undefined : storedToken(generatedPushToken)));
    if (token !== undefined && token?.hash !== (stored ?? undefined)) {
      await tx.store.monitors.setPushToken(current.id, token, now);
      changed = true;
    }
    if (changed) await announce(tx, current);
    return {
      monitor: (await tx.store.monitors.findById(current.id)) ?? current,
      outcome: changed ? 'updated' : 'unchanged',
      generatedPushToken,
    };
  },
);

async function withheldFromRelay(ctx: ServiceContext, monitor: Monitor, relayId: string | null): Promise<boolean> {
  const relay = relayId === null ? undefined : await ctx.store.relays.findById(relayId);
  return relay !== undefined && withheldSecrets(monitor, relay).length > 0;
}

/**
 * Deletes a monitor with its history; components that showed it show nothing until told otherwise, and the monitors
 * (and relays) that depended on it depend on nothing: they are judged on their own from then on.
 */
export const deleteMonitor = writeVerb(monitorIdSchema, async (tx, ref): Promise<void> => {
  const monitor = await requireMonitor(tx, ref);
  assertWritable(monitor, writerOf(tx), `monitor "${monitor.key}"`);
  const pageIds = await tx.store.components.pageIdsShowing(monitor.id);
  await tx.store.monitors.delete(monitor.id);
  await tx.store.dependencies.clearParent(monitor.organizationId, monitor.key, tx.clock.now());
  announceTo(tx, monitor.organizationId, pageIds);
});

/** Runners, relays and token caches reload the organization's monitors; pages showing this one rebuild. */
export async function announce(ctx: ServiceContext, monitor: Pick<Monitor, 'id' | 'organizationId'>): Promise<void> {
  announceTo(ctx, monitor.organizationId, await ctx.store.components.pageIdsShowing(monitor.id));
}

function announceTo(ctx: ServiceContext, organizationId: string, pageIds: readonly string[]): void {
  const at = ctx.clock.now();
  ctx.bus.publish({ type: 'monitors.changed', at, organizationId });
  for (const pageId of pageIds) ctx.bus.publish({ type: 'page.changed', at, pageId });
}

async function insertMonitor(ctx: ServiceContext, spec: MonitorSpec, pushToken: StoredToken | null): Promise<Monitor> {
  const organizationId = organizationOf(ctx);
  const taken = `a monitor with key "${spec.key}" already exists`;
  const monitor = await uniquely(
    ctx,
    async () => {
      if ((await ctx.store.monitors.count(organizationId)) >= LIMITS.monitorsPerOrganization)
        throw new ConflictError(`an organization has at most ${LIMITS.monitorsPerOrganization} monitors`);
      if (await ctx.store.monitors.findByKey(organizationId, spec.key)) throw new ConflictError(taken);
      const id = newId('mon');
      // Created with its secrets in full, by the API or the file: they are the writer's own.
      const secretsSetAt = await secretsSetTime(ctx, spec.relayId);
      await ctx.store.monitors.insert(
        { ...spec, id, organizationId, managedBy: writerOf(ctx), pushToken, secretsSetAt },
        ctx.clock.now(),
      );
      return (await ctx.store.monitors.findById(id)) as Monitor;
    },
    taken,
  );
  ctx.bus.publish({ type: 'monitors.changed', at: ctx.clock.now(), organizationId });
  return monitor;
}

/** The stored spec of an entry, its relay named by key checked against the organization's relays. */
function specOf(entry: Omit<MonitorEntry, 'pushToken'>, relayIds: ReadonlyMap<string, string>): MonitorSpec {
  const exists = (key: string) => relayIds.has(key);
  const issues = [...monitorPlacementIssues(entry, exists), ...monitorLocationIssues(entry, exists)];
  if (issues.length > 0) throw new ValidationError(issues);
  return {
    key: entry.key,
    name: entry.name,
    type: entry.type,
    config: entry.config as Record<string, unknown>,
    intervalSec: entry.intervalSec,
    timeoutMs: entry.timeoutMs,
    runOn: entry.runOn,
    relayId: entry.relay === undefined ? null : (relayIds.get(entry.relay) ?? null),
    enabled: entry.enabled,
    retries: entry.retries,
    degradedLatencyMs: entry.degradedLatencyMs ?? null,
    tags: entry.tags,
    playerAlerts: entry.playerAlerts ?? null,
    expectedRestart: entry.expectedRestart ?? null,
    // warden.yaml's parents are checked with the file (config/file-schema.ts): one may come later in it.
    dependsOn: entry.dependsOn ?? null,
    locations: locationIds(entry.locations, relayIds),
    quorum: entry.quorum ?? null,
  };
}

/** The stored locations of the keys written ('edge' stays 'edge'; a relay key becomes its id); null: none. */
export function locationIds(
  keys: readonly string[] | null | undefined,
  relayIds: ReadonlyMap<string, string>,
): string[] | null {
  if (!keys || keys.length === 0) return null;
  return keys.map((key) => (key === EDGE_LOCATION ? key : (relayIds.get(key) ?? key)));
}

export async function relayIdsByKey(ctx: ServiceContext): Promise<Map<string, string>> {
  return new Map((await ctx.store.relays.list(organizationOf(ctx))).map((r) => [r.key, r.id]));
}

export function storedToken(secret: string): StoredToken {
  return { hash: hashSecret(secret), prefix: displayPrefix(secret) };
}
