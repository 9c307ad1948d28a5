// Reads the organization's monitors with their state and latest result, secrets redacted; another organization's is "not found".
import type { z } from 'zod';
import type { Monitor } from '../../domain/monitor.js';
import { organizationOf, parseInput, type ServiceContext } from '../context.js';
import { requireOwned } from '../owned-ref.js';
import { dependencyGraphOf, unreachableOf } from './dependencies.js';
import { monitorIdSchema, type monitorRefSchema } from './schema.js';
import { type MonitorWithRelay, monitorWithRelay } from './view.js';

export async function listMonitors(ctx: ServiceContext): Promise<MonitorWithRelay[]> {
  const organizationId = organizationOf(ctx);
  const [monitors, relayKeys, graph] = await Promise.all([
    ctx.store.monitors.list(organizationId),
    relayKeysById(ctx),
    dependencyGraphOf(ctx),
  ]);
  return monitors.map((m) => monitorWithRelay(m, relayKeys, unreachableOf(graph, m)));
}

export async function getMonitor(
  ctx: ServiceContext,
  input: z.input<typeof monitorIdSchema>,
): Promise<MonitorWithRelay> {
  const monitor = await requireMonitor(ctx, parseInput(monitorIdSchema, input));
  const [relayKeys, graph] = await Promise.all([relayKeysById(ctx), dependencyGraphOf(ctx)]);
  return monitorWithRelay(monitor, relayKeys, unreachableOf(graph, monitor));
}

/**
 * The organization's monitor by key, or by id — which may also be its key (`/api/v1/monitors/{id}` takes either; an id
 * wins over a key that happens to read the same). Another organization's is "not found".
 */
export async function requireMonitor(ctx: ServiceContext, ref: z.output<typeof monitorRefSchema>): Promise<Monitor> {
  return requireOwned(ctx, 'monitor', ctx.store.monitors, ref);
}

/** Relay ids to keys, for views. */
export async function relayKeysById(ctx: ServiceContext): Promise<Map<string, string>> {
  return new Map((await ctx.store.relays.list(organizationOf(ctx))).map((r) => [r.id, r.key]));
}
