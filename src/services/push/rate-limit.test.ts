import { describe, expect, it } from 'vitest';
import { createPushRateLimiter } from './rate-limit.js';

describe('the push token bucket', () => {
  it('allows a burst, then the steady rate, and says in whole seconds when to retry', () => {
    const limiter = createPushRateLimiter({ perSecond: 10, burst: 20 });
    const t = 1_000_000;
    for (let i = 0; i < 20; i++) expect(limiter.take('a', t)).toEqual({ allowed: true });
    expect(limiter.take('a', t)).toEqual({ allowed: false, retryAfterSec: 1 });
    // Another token has its own bucket.
    expect(limiter.take('b', t)).toEqual({ allowed: true });
    // 100 ms refill one ping at 10 a second.
    expect(limiter.take('a', t + 100).allowed).toBe(true);
    expect(limiter.take('a', t + 100).allowed).toBe(false);
    // Over a second: 10 more, not 20.
    let allowed = 0;
    for (let i = 0; i < 30; i++) if (limiter.take('a', t + 1100).allowed) allowed++;
    expect(allowed).toBe(10);
  });

  it('rounds Retry-After up to whole seconds, at least 1', () => {
    const slow = createPushRateLimiter({ perSecond: 0.25, burst: 1 });
    expect(slow.take('a', 0).allowed).toBe(true);
    expect(slow.take('a', 0)).toEqual({ allowed: false, retryAfterSec: 4 });
    expect(slow.take('a', 1500)).toEqual({ allowed: false, retryAfterSec: 3 });
    expect(slow.take('a', 4000).allowed).toBe(true);
  });

  it('tracks at most maxTracked tokens: full buckets are swept, then the oldest dropped', () => {
    const limiter = createPushRateLimiter({ perSecond: 10, burst: 20, maxTracked: 100 });
    for (let i = 0; i < 1000; i++) limiter.take(`t${i}`, 0);
    expect(limiter.tracked()).toBeLessThanOrEqual(100);
    // Two seconds later every bucket is full again: the next new token sweeps them all.
    limiter.take('late', 2000);
    expect(limiter.tracked()).toBe(1);
  });
});
