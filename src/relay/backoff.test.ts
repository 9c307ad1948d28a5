import { describe, expect, it } from 'vitest';
import { backoffDelay } from './backoff.js';

describe('backoffDelay', () => {
  const options = { baseMs: 1000, maxMs: 60_000 };

  it('doubles from the base up to the cap', () => {
    const highest = [1, 2, 3, 4, 5, 6, 7, 10, 100].map((attempt) => backoffDelay(attempt, options, () => 1));
    expect(highest).toEqual([1000, 2000, 4000, 8000, 16_000, 32_000, 60_000, 60_000, 60_000]);
  });

  it('keeps half of each delay and randomizes the other half, so relays do not retry in step', () => {
    expect(backoffDelay(3, options, () => 0)).toBe(2000);
    expect(backoffDelay(3, options, () => 0.5)).toBe(3000);
    const spread = new Set(Array.from({ length: 50 }, () => backoffDelay(5, options)));
    expect(spread.size).toBeGreaterThan(10);
    for (const delay of spread) expect(delay).toBeGreaterThanOrEqual(8000);
  });
});
