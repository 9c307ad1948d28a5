// How much garbage V8 lets the heap carry before a full collection: a long-running monitor favours memory over nothing.
import { setFlagsFromString } from 'node:v8';

/** The default: the old generation may grow by half over what was live after the last full collection. */
export const DEFAULT_HEAP_GROWTH_PERCENT = 50;

/**
 * V8 lets the old generation grow to up to four times what was live after the last full collection before it
 * collects again. A server running thousands of checks promotes a steady trickle of short-lived objects, so its
 * resident memory climbs to that ceiling (about 280 MB at 10,000 monitors) although only 40–50 MB is live.
 * Capping the growth at 1.5× keeps it near 200 MB; a full collection of a heap that size takes a few
 * milliseconds every several seconds, which the runner benchmark does not see in CPU per check.
 * 0 leaves V8's own heuristics. Called once at start, before the server allocates much.
 */
export function limitHeapGrowth(percent: number): void {
  if (percent > 0) setFlagsFromString(`--heap-growing-percent=${Math.round(percent)}`);
}
