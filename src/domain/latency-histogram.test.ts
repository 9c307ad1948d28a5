// Percentiles read off a bucket's latency histogram: inside the right bin, within what was seen, null without latencies.
import { describe, expect, it } from 'vitest';
import { LATENCY_BIN_UPPER_MS, latencyBin } from './check.js';
import { addHistogram, emptyHistogram, latencyPercentile } from './latency-histogram.js';

function histogramOf(latencies: number[]): number[] {
  const histogram = emptyHistogram();
  for (const latency of latencies) histogram[latencyBin(latency)]!++;
  return histogram;
}

describe('latencyBin', () => {
  it('puts a latency in the first bin whose upper bound it does not pass', () => {
    expect([0, 5, 6, 10, 11, 1000, 1001, 5000, 5001, 600_000].map(latencyBin)).toEqual([
      0, 0, 1, 1, 2, 12, 13, 14, 15, 15,
    ]);
    expect(LATENCY_BIN_UPPER_MS).toHaveLength(16);
  });
});

describe('latencyPercentile', () => {
  it('is null without latencies', () => {
    expect(latencyPercentile(emptyHistogram(), 0.5, { min: null, max: null })).toBeNull();
  });

  it('is exact when every check had the same latency', () => {
    expect(latencyPercentile(histogramOf([42, 42, 42]), 0.5, { min: 42, max: 42 })).toBe(42);
    expect(latencyPercentile(histogramOf([42, 42, 42]), 0.95, { min: 42, max: 42 })).toBe(42);
  });

  it('interpolates inside the bin holding the rank, and reads the slow tail off the open last bin up to the slowest seen', () => {
    const latencies = [...Array<number>(90).fill(30), ...Array<number>(10).fill(8000)];
    const histogram = histogramOf(latencies);
    const seen = { min: 30, max: 8000 };
    const p50 = latencyPercentile(histogram, 0.5, seen)!;
    // Every fast check is in (20, 35]; the median lies in it, no lower than the fastest seen.
    expect(p50).toBeGreaterThanOrEqual(30);
    expect(p50).toBeLessThanOrEqual(35);
    const p95 = latencyPercentile(histogram, 0.95, seen)!;
    expect(p95).toBeGreaterThan(5000);
    expect(p95).toBeLessThanOrEqual(8000);
  });

  it('grows with the share asked for', () => {
    const histogram = histogramOf([3, 9, 15, 30, 45, 60, 90, 120, 180, 250, 400, 600, 900, 1500, 3000]);
    const seen = { min: 3, max: 3000 };
    const values = [0.1, 0.25, 0.5, 0.75, 0.9, 0.99].map((share) => latencyPercentile(histogram, share, seen)!);
    expect([...values].sort((a, b) => a - b)).toEqual(values);
    expect(values[2]).toBeGreaterThan(75);
    expect(values[2]).toBeLessThanOrEqual(150);
  });

  it('sums histograms bin by bin', () => {
    const total = emptyHistogram();
    addHistogram(total, histogramOf([1, 30]));
    addHistogram(total, histogramOf([30, 9000]));
    expect(total).toEqual(histogramOf([1, 30, 30, 9000]));
  });
});
