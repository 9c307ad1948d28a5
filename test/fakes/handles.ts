// Counts the process's active handles (sockets, servers, timers) so tests can prove a probe left nothing open.

/** Active resources by type, e.g. { TCPSocketWrap: 2, Timeout: 1 }. */
export function activeResources(): Map<string, number> {
  const counts = new Map<string, number>();
  for (const type of process.getActiveResourcesInfo()) counts.set(type, (counts.get(type) ?? 0) + 1);
  return counts;
}

/** Resource types of which `after` holds more than `before`, with how many more. */
export function resourcesAdded(before: Map<string, number>, after: Map<string, number>): Record<string, number> {
  const added: Record<string, number> = {};
  for (const [type, count] of after) {
    const extra = count - (before.get(type) ?? 0);
    if (extra > 0) added[type] = extra;
  }
  return added;
}

/**
 * Waits until no resource type outnumbers the `before` snapshot, and returns what is still extra ({} when clean).
 * Closing a socket finishes on a later turn of the event loop, so a single look right after a probe would flake.
 */
export async function leakedResources(before: Map<string, number>, waitMs = 1000): Promise<Record<string, number>> {
  const deadline = performance.now() + waitMs;
  for (;;) {
    // setImmediate rather than a timer, so the wait itself adds no Timeout to the count.
    await new Promise<void>((resolve) => setImmediate(resolve));
    const added = resourcesAdded(before, activeResources());
    if (Object.keys(added).length === 0 || performance.now() > deadline) return added;
  }
}

/**
 * A "before" snapshot taken once no timer is pending (up to 500 ms): vitest keeps a timer of its own for a moment
 * after a test starts, and if that timer ended after the snapshot it would hide a timer the probe leaked.
 */
export async function quietResources(): Promise<Map<string, number>> {
  const deadline = performance.now() + 500;
  while ((activeResources().get('Timeout') ?? 0) > 0 && performance.now() < deadline)
    await new Promise((resolve) => setImmediate(resolve));
  return activeResources();
}
