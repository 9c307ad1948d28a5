// What dependencies do to a commit's state changes (docs/monitors.md, "Dependencies"): a monitor's down or degraded
// alert is held back while an ancestor is down (recorded as skipped, with "unreachable: <parent> is down"); a parent's
// down alert counts the monitors behind it; and when a parent stops being down, the monitors it held back that are
// still down or degraded are judged on their own: each gets its alert then.
import {
  type DependencyGraph,
  dependencyGraph,
  dependentsOf,
  downAncestor,
  releasedBy,
  unreachableReason,
} from '../../domain/dependencies.js';
import type { Monitor } from '../../domain/monitor.js';
import type { Store } from '../../store/index.js';
import { releasedItem } from '../events/dependencies.js';
import type { OutboxItem } from '../events/item.js';
import { notificationKind, type StateChange } from '../events/monitors.js';

export interface DependencyVerdicts {
  /** Monitor id → why its alert is held back ("unreachable: <parent> is down"). */
  held: Map<string, string>;
  /** Monitor id of a parent going down → how many enabled monitors depend on it. */
  dependents: Map<string, number>;
  /** The alerts of monitors released by a parent that is no longer down. */
  released: OutboxItem[];
}

/** Judged on the states after the commit (`tx` sees them); organizations where no monitor names a parent cost one read. */
export async function judgeDependencies(
  tx: Store,
  changes: readonly StateChange[],
  monitors: ReadonlyMap<string, Monitor>,
): Promise<DependencyVerdicts> {
  const verdicts: DependencyVerdicts = { held: new Map(), dependents: new Map(), released: [] };
  for (const organizationId of new Set(changes.map((c) => c.organizationId))) {
    if (!(await tx.dependencies.any(organizationId))) continue;
    const graph = dependencyGraph(await tx.dependencies.nodes(organizationId));
    const own = changes.filter((c) => c.organizationId === organizationId);
    const released = new Map<string, { parent: string; at: number }>();
    for (const change of own) {
      const monitor = monitors.get(change.monitorId);
      if (monitor) judge(graph, change, monitor, verdicts, released);
    }
    // A monitor whose own state moved in this commit is told by its own change.
    for (const change of own) released.delete(change.monitorId);
    if (released.size === 0) continue;
    for (const monitor of await tx.monitors.findByIds([...released.keys()])) {
      const by = released.get(monitor.id);
      const item = by && releasedItem(monitor, by.parent, by.at);
      if (item) verdicts.released.push(item);
    }
  }
  return verdicts;
}

function judge(
  graph: DependencyGraph,
  change: StateChange,
  monitor: Monitor,
  verdicts: DependencyVerdicts,
  released: Map<string, { parent: string; at: number }>,
): void {
  const kind = notificationKind(change.previous, change.state);
  if (kind === 'monitor.down' || kind === 'monitor.degraded') {
    const parent = downAncestor(graph, monitor.key);
    if (parent) verdicts.held.set(monitor.id, unreachableReason(parent));
  }
  if (kind === 'monitor.down') {
    const dependents = dependentsOf(graph, monitor.key).filter((node) => node.enabled).length;
    if (dependents > 0) verdicts.dependents.set(monitor.id, dependents);
  }
  if (change.previous !== 'down' || change.state === 'down') return;
  // Held back: gone down (or degraded) since this parent went down; one that went first was told already.
  for (const node of releasedBy(graph, monitor.key))
    if (node.stateSince >= change.previousSince) released.set(node.id, { parent: monitor.name, at: change.at });
}
