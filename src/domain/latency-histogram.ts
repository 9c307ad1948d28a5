// Percentiles read back off the latency histogram of check buckets (domain/check.ts fills it, bin by LATENCY_BIN_UPPER_MS).
import { LATENCY_BIN_UPPER_MS } from './check.js';

const LATENCY_BINS = LATENCY_BIN_UPPER_MS.length;

/** A histogram with no checks in it, one count per bin. */
export function emptyHistogram(): number[] {
  return new Array<number>(LATENCY_BINS).fill(0);
}

/** Adds `from` into `into`, bin by bin. */
export function addHistogram(into: number[], from: readonly number[]): void {
  for (let bin = 0; bin < LATENCY_BINS; bin++) into[bin] = (into[bin] ?? 0) + (from[bin] ?? 0);
}

/**
 * The latency below which `share` (0–1) of the checks fall, interpolated linearly inside the bin that holds it, and
 * kept within the smallest and largest latency seen (which also bound the first and the open last bin). Null
 * without checks. Exact to the bin's width: at most the spread between two neighbouring bounds.
 */
export function latencyPercentile(
  histogram: readonly number[],
  share: number,
  seen: { min: number | null; max: number | null },
): number | null {
  const total = histogram.reduce((sum, count) => sum + count, 0);
  if (total === 0) return null;
  const rank = Math.min(Math.max(share, 0), 1) * total;
  let below = 0;
  for (let bin = 0; bin < LATENCY_BINS; bin++) {
    const count = histogram[bin] ?? 0;
    if (count === 0 || below + count < rank) {
      below += count;
      continue;
    }
    const lower = bin === 0 ? 0 : LATENCY_BIN_UPPER_MS[bin - 1]!;
    const upper = LATENCY_BIN_UPPER_MS[bin]!;
    const low = Math.max(lower, seen.min ?? lower);
    const high = Math.min(Number.isFinite(upper) ? upper : (seen.max ?? lower), seen.max ?? upper);
    const value = high <= low ? low : low + ((high - low) * (rank - below)) / count;
    return Math.round(value * 10) / 10;
  }
  return seen.max;
}
