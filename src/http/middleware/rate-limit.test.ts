import { describe, expect, it } from 'vitest';
import { createRateLimiter } from './rate-limit.js';

describe('createRateLimiter', () => {
  it('grants the budget per window and per key', () => {
    const limiter = createRateLimiter({ requests: 2, windowMs: 10_000, maxKeys: 100 });
    expect(limiter.take('a', 0)).toEqual({ allowed: true, limit: 2, remaining: 1, resetSec: 10 });
    expect(limiter.take('a', 1000)).toEqual({ allowed: true, limit: 2, remaining: 0, resetSec: 9 });
    expect(limiter.take('a', 2500)).toEqual({ allowed: false, limit: 2, remaining: 0, resetSec: 8 });
    expect(limiter.take('b', 2500).allowed).toBe(true);
    expect(limiter.take('a', 10_000)).toEqual({ allowed: true, limit: 2, remaining: 1, resetSec: 10 });
  });

  it('reports at least one second until the reset', () => {
    const limiter = createRateLimiter({ requests: 1, windowMs: 10_000, maxKeys: 100 });
    limiter.take('a', 0);
    expect(limiter.take('a', 9_999).resetSec).toBe(1);
  });

  it('tracks a bounded number of keys, dropping expired windows first', () => {
    const limiter = createRateLimiter({ requests: 1, windowMs: 1000, maxKeys: 2 });
    limiter.take('a', 0);
    limiter.take('b', 500);
    // "a" expired: sweeping it makes room, "b" keeps its spent budget.
    limiter.take('c', 1200);
    expect(limiter.take('b', 1300).allowed).toBe(false);
    // Nothing expired: the oldest key is dropped to stay within bounds.
    limiter.take('d', 1400);
    expect(limiter.take('c', 1450).allowed).toBe(false);
  });
});
