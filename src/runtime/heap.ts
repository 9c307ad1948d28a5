// How much garbage V8 lets the heap carry before a full collection: a long-running monitor favours memory over nothing.
import { PerformanceObserver } from 'node:perf_hooks';
import { getHeapSpaceStatistics, setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

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

/** The default cap of the young generation: two semi-spaces of 2 MiB (V8 lets them grow to 16 MiB each). */
export const DEFAULT_YOUNG_GENERATION_MB = 4;

/**
 * V8 starts the young generation (where every object is born) at 1 MiB and doubles it, up to two semi-spaces of 16
 * MiB, whenever enough objects survive a scavenge: a start-up that parses a large config, or a burst of requests,
 * leaves 32 MiB of resident memory behind, which V8 gives back only when a collection finds the process quiet. The
 * cap cannot be handed to V8 once it runs (it is a command-line flag), so it is kept here:
 * - until `started()`, the young generation does not grow at all (the launcher holds it from the first line, see
 *   holdYoungGeneration): a start-up is one long burst of allocation;
 * - after it, growth stays allowed only while one more doubling fits under `maxMiB`, checked after each collection.
 *   Node tells of collections once the event loop turns, so one long synchronous burst (the first renderings of a
 *   large page, say) can double it past the cap before the check stops it;
 * - every TIDY_MS, a young generation grown past its cap is scavenged once: V8 shrinks it back then if the process is
 *   quiet (allocating under 1 MB/s), and leaves it be under load. A full collection is never forced: it is a pause
 *   nothing asked for, and one forced after warm-up, with no `process.nextTick` object alive, used to leave the hot
 *   paths ~20 % slower for good (runtime/tick-shape.ts now keeps what it dropped); on Node 20 `gc({ type: 'major' })`
 *   is a scavenge anyway (only a bare `gc()` is a full one).
 * Measured on pushes over 100 tokens, 4 MiB costs 0–3 % of throughput against V8's 32 (2 MiB cost ~4 %) and saves
 * ~25 MiB after load. 0 leaves V8's own limit. Called once at start, before the server allocates much.
 */
export function limitYoungGeneration(maxMiB: number, { tidyMs = TIDY_MS } = {}): { started(): void } {
  if (maxMiB <= 0) {
    setFlagsFromString(`--semi-space-growth-factor=${V8_SEMI_SPACE_GROWTH_FACTOR}`);
    return { started: () => {} };
  }
  const cap = maxMiB * 1024 * 1024;
  let growing: boolean | undefined;
  const allowGrowth = (grow: boolean) => {
    if (grow === growing) return;
    growing = grow;
    setFlagsFromString(`--semi-space-growth-factor=${grow ? V8_SEMI_SPACE_GROWTH_FACTOR : 1}`);
  };
  allowGrowth(false);
  return {
    started() {
      const check = () => allowGrowth(youngGenerationBytes() * 2 <= cap);
      check();
      new PerformanceObserver(check).observe({ entryTypes: ['gc'] });
      const gc = exposedGc();
      setInterval(() => {
        if (youngGenerationBytes() > cap) gc({ type: 'minor' });
      }, tidyMs).unref();
    },
  };
}

/**
 * The same hold, from the very first line: the production launcher calls it before it runs the bundle, whose loading
 * is itself a burst that grows the young generation to 16 MiB before `serve` could set the cap (WARDEN_YOUNG_GENERATION_MB=0
 * lifts it again).
 */
export function holdYoungGeneration(): void {
  setFlagsFromString('--semi-space-growth-factor=1');
}

/** How often a young generation grown past its cap is offered a chance to shrink (see limitYoungGeneration). */
const TIDY_MS = 10_000;

/** V8's gc(), exposed only while it is taken (a new context gets it while the flag is on). */
function exposedGc(): (options: { type: 'minor' }) => void {
  setFlagsFromString('--expose-gc');
  const gc = runInNewContext('gc') as (options: { type: 'minor' }) => void;
  setFlagsFromString('--no-expose-gc');
  return gc;
}

/** V8's own growth factor of the semi-spaces: they double. */
export const V8_SEMI_SPACE_GROWTH_FACTOR = 2;

/** The young generation's size now: both semi-spaces (what V8 calls the new space). */
export function youngGenerationBytes(): number {
  return getHeapSpaceStatistics().find((space) => space.space_name === 'new_space')?.space_size ?? 0;
}
