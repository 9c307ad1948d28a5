// A monitor's parent as the API writes it (docs/monitors.md, "Dependencies"): it must be a monitor of the
// organization, not the monitor itself, close no cycle and make no chain deeper than MAX_DEPENDENCY_DEPTH; and the
// unreachable note the views show of a monitor behind a down parent.
import {
  type DependencyGraph,
  dependencyGraph,
  dependencyProblem,
  downAncestor,
  effectiveParent,
  unreachableReason,
} from '../../domain/dependencies.js';
import { type FieldIssue, ValidationError } from '../../domain/errors.js';
import type { Monitor } from '../../domain/monitor.js';
import { organizationOf, type ServiceContext } from '../context.js';

/** The field named in the issues (`dependsOn`). */
const FIELD = 'dependsOn';

/**
 * Refuses (400, naming `dependsOn` and the path) a parent that would make `key` (running on `relayId`) depend on
 * itself, on a missing monitor or on a chain too deep. `dependsOn` null: the relay's parent, if any, is checked.
 */
export async function checkMonitorParent(
  ctx: ServiceContext,
  monitor: { key: string; dependsOn: string | null; relayId: string | null },
): Promise<void> {
  const relay = monitor.relayId === null ? undefined : await ctx.store.relays.findById(monitor.relayId);
  const parent = effectiveParent(monitor.dependsOn, relay?.dependsOn ?? null, monitor.key);
  if (parent === null) return;
  const graph = dependencyGraph(await ctx.store.dependencies.nodes(organizationOf(ctx)));
  const issue = parentIssue(graph, monitor.key, parent);
  // A relay's parent that no longer fits this monitor is the relay's to fix; the monitor's own is named here.
  if (issue) throw new ValidationError([{ path: monitor.dependsOn === null ? 'relay' : FIELD, message: issue }]);
}

/** Refuses a relay's parent that would close a cycle or a too deep chain for any monitor it runs without its own. */
export async function checkRelayParent(
  ctx: ServiceContext,
  relay: { id: string | null; dependsOn: string | null },
): Promise<void> {
  if (relay.dependsOn === null) return;
  const graph = dependencyGraph(await ctx.store.dependencies.nodes(organizationOf(ctx)));
  if (!graph.has(relay.dependsOn))
    throw new ValidationError([{ path: FIELD, message: `no monitor with key "${relay.dependsOn}"` }]);
  const onRelay = relay.id === null ? [] : await ctx.store.monitors.keysOnRelay(relay.id);
  const monitors = new Map((await ctx.store.monitors.list(organizationOf(ctx))).map((m) => [m.key, m]));
  const issues: FieldIssue[] = [];
  for (const key of onRelay) {
    if (monitors.get(key)?.dependsOn != null || key === relay.dependsOn) continue;
    const issue = parentIssue(graph, key, relay.dependsOn);
    if (issue) issues.push({ path: FIELD, message: `${issue} (monitor "${key}" runs on this relay)` });
  }
  if (issues.length > 0) throw new ValidationError(issues.slice(0, 1));
}

function parentIssue(graph: DependencyGraph, key: string, parent: string): string | null {
  if (!graph.has(parent)) return `no monitor with key "${parent}"`;
  if (parent === key) return 'a monitor cannot depend on itself';
  return dependencyProblem(key, parent, (at) => graph.get(at)?.parent)?.message ?? null;
}

/** The organization's dependency graph, read only when some monitor or relay names a parent. */
export async function dependencyGraphOf(ctx: ServiceContext): Promise<DependencyGraph | null> {
  const organizationId = organizationOf(ctx);
  if (!(await ctx.store.dependencies.any(organizationId))) return null;
  return dependencyGraph(await ctx.store.dependencies.nodes(organizationId));
}

/** "unreachable: <parent> is down" for an enabled monitor not up while an ancestor is down; null otherwise. */
export function unreachableOf(graph: DependencyGraph | null, monitor: Monitor): string | null {
  if (graph === null || !monitor.enabled || monitor.state === 'up') return null;
  const parent = downAncestor(graph, monitor.key);
  return parent === null ? null : unreachableReason(parent);
}
