// Secrets a relay may not receive: a token rotated through the API shows the caller a token that reads the relay config,
// so every secret set before that rotation is withheld from it until it is written in full again.
import type { Monitor } from '../../domain/monitor.js';
import type { Relay } from '../../domain/organization.js';
import { probeDefinition } from '../../probes/registry.js';
import type { ServiceContext } from '../context.js';

/** A monitor whose secrets a relay does not get, as the API's rotation answer names it. */
export interface WithheldMonitor {
  id: string;
  key: string;
  name: string;
  /** Its secret fields withheld (config.headers, config.password, …), by name. */
  fields: string[];
}

/**
 * The secret fields of the monitor's config the relay may not receive: those present, when the relay's token was
 * rotated through the API after (or at the same millisecond as) they were last written in full. Registry-driven.
 */
export function withheldSecrets(
  monitor: Pick<Monitor, 'type' | 'config' | 'secretsSetAt'>,
  relay: Pick<Relay, 'secretsWithheldBefore'>,
): string[] {
  const before = relay.secretsWithheldBefore;
  if (before === null || (monitor.secretsSetAt !== null && monitor.secretsSetAt > before)) return [];
  const definition = probeDefinition(monitor.type);
  // A type this build does not know has no secrets it could name: nothing to withhold, and its config is not probed.
  if (!definition) return [];
  return definition.secrets.filter((field) => monitor.config[field] !== undefined);
}

/** The config without the withheld fields. */
export function withoutFields(config: Record<string, unknown>, fields: readonly string[]): Record<string, unknown> {
  const out = { ...config };
  for (const field of fields) delete out[field];
  return out;
}

/**
 * When secrets written now count as set for the relay the monitor runs on: now, but always after that relay's last
 * rotation through the API, so secrets sent again in the same millisecond as a rotation are not withheld.
 */
export async function secretsSetTime(ctx: ServiceContext, relayId: string | null): Promise<number> {
  const now = ctx.clock.now();
  const before = relayId === null ? null : ((await ctx.store.relays.findById(relayId))?.secretsWithheldBefore ?? null);
  return before === null ? now : Math.max(now, before + 1);
}

/** The monitors assigned to the relay (enabled or not) whose secrets it does not get. */
export async function monitorsWithheldFrom(ctx: ServiceContext, relay: Relay): Promise<WithheldMonitor[]> {
  const monitors = await ctx.store.monitors.list(relay.organizationId);
  return monitors
    .filter((m) => (m.runOn === 'relay' && m.relayId === relay.id) || (m.locations?.includes(relay.id) ?? false))
    .map((m) => ({ id: m.id, key: m.key, name: m.name, fields: withheldSecrets(m, relay) }))
    .filter((m) => m.fields.length > 0);
}
