// Monitor dependencies (issue 37): a monitor may depend on a parent monitor (its own `dependsOn`, or its relay's).
// While an ancestor is down the monitor is unreachable: its alerts are held back, and the parent's alert counts it.
// Pure rules over a graph of an organization's monitors, keyed by monitor key.
import type { MonitorState } from './monitor-type.js';

/** How many parents a chain may have above a monitor (a → b → … ten levels up at most). */
export const MAX_DEPENDENCY_DEPTH = 10;

/** One monitor as the dependency rules see it: `parent` is its effective parent's key (its own, else its relay's). */
export interface DependencyNode {
  id: string;
  key: string;
  name: string;
  state: MonitorState;
  enabled: boolean;
  stateSince: number;
  parent: string | null;
}

export type DependencyGraph = ReadonlyMap<string, DependencyNode>;

export function dependencyGraph(nodes: readonly DependencyNode[]): DependencyGraph {
  return new Map(nodes.map((node) => [node.key, node]));
}

/** The effective parent: the monitor's own, else its relay's (a relay's monitors inherit it), never itself. */
export function effectiveParent(own: string | null, relayParent: string | null, key: string): string | null {
  const parent = own ?? relayParent;
  return parent === key && own === null ? null : parent;
}

/**
 * Why `child` may not get `parent` as its parent, given the other monitors' parents (`parentOf`): a cycle (the path,
 * `a → b → a`), a chain deeper than MAX_DEPENDENCY_DEPTH, or null when it may. `path` lists the keys walked.
 */
export function dependencyProblem(
  child: string,
  parent: string,
  parentOf: (key: string) => string | null | undefined,
): { message: string; path: string[] } | null {
  const path = [child, parent];
  let at: string | null | undefined = parent;
  while (at !== null && at !== undefined) {
    if (at === child) return { message: `a dependency cycle: ${path.join(' → ')}`, path };
    if (path.length - 1 > MAX_DEPENDENCY_DEPTH)
      return { message: `a dependency chain deeper than ${MAX_DEPENDENCY_DEPTH}: ${path.join(' → ')}`, path };
    at = parentOf(at);
    if (at !== null && at !== undefined) path.push(at);
  }
  return null;
}

/** The nearest ancestor that is down (enabled): while one is, the monitor is unreachable. */
export function downAncestor(graph: DependencyGraph, key: string): DependencyNode | null {
  const seen = new Set([key]);
  let parent = graph.get(key)?.parent ?? null;
  while (parent !== null && !seen.has(parent) && seen.size <= MAX_DEPENDENCY_DEPTH + 1) {
    seen.add(parent);
    const node = graph.get(parent);
    if (!node) return null;
    if (node.enabled && node.state === 'down') return node;
    parent = node.parent;
  }
  return null;
}

/** What the dashboard, the API and the held alerts say of a monitor behind a down parent. */
export function unreachableReason(parent: Pick<DependencyNode, 'name'>): string {
  return `unreachable: ${parent.name} is down`;
}

/**
 * The monitors held behind a down ancestor, each with that ancestor's name: enabled, not up, an ancestor down. What a
 * page that shows it (`showUnreachable`) says of their components.
 */
export function heldBehind(
  graph: DependencyGraph,
  monitors: Iterable<{ id: string; key: string; enabled: boolean; state: MonitorState }>,
): Map<string, string> {
  const held = new Map<string, string>();
  for (const monitor of monitors) {
    if (!monitor.enabled || monitor.state === 'up') continue;
    const parent = downAncestor(graph, monitor.key);
    if (parent) held.set(monitor.id, parent.name);
  }
  return held;
}

/** Every monitor below `key` (children, their children, …), each once. */
export function dependentsOf(graph: DependencyGraph, key: string): DependencyNode[] {
  const children = childrenIndex(graph);
  const found: DependencyNode[] = [];
  const seen = new Set([key]);
  const queue = [key];
  for (let at = queue.shift(); at !== undefined; at = queue.shift())
    for (const child of children.get(at) ?? []) {
      if (seen.has(child.key)) continue;
      seen.add(child.key);
      found.push(child);
      queue.push(child.key);
    }
  return found;
}

/**
 * When `key` stops being down: the monitors below it that were held back and are now judged on their own (down or
 * degraded, enabled, with no other ancestor down). Below a child that is still down, its own children stay held.
 */
export function releasedBy(graph: DependencyGraph, key: string): DependencyNode[] {
  const children = childrenIndex(graph);
  const released: DependencyNode[] = [];
  const seen = new Set([key]);
  const queue = [key];
  for (let at = queue.shift(); at !== undefined; at = queue.shift())
    for (const child of children.get(at) ?? []) {
      if (seen.has(child.key) || !child.enabled) continue;
      seen.add(child.key);
      if (child.state === 'down' || child.state === 'degraded') {
        if (downAncestor(graph, child.key) === null) released.push(child);
        if (child.state === 'down') continue;
      }
      queue.push(child.key);
    }
  return released;
}

function childrenIndex(graph: DependencyGraph): Map<string, DependencyNode[]> {
  const index = new Map<string, DependencyNode[]>();
  for (const node of graph.values())
    if (node.parent !== null) {
      const siblings = index.get(node.parent);
      if (siblings) siblings.push(node);
      else index.set(node.parent, [node]);
    }
  return index;
}
