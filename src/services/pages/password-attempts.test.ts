// The count of wrong page passwords per client and page: the limit, its window, checks in flight, bounded memory.
import { describe, expect, it } from 'vitest';
import { createGate, createPasswordAttempts } from './password-attempts.js';

const LIMITS = { windowMs: 60_000, maxTracked: 100 };

function wrong(attempts: ReturnType<typeof createPasswordAttempts>, key: string, now: number) {
  const reserved = attempts.reserve(key, now);
  if ('settle' in reserved) reserved.settle('wrong', now);
  return reserved;
}

describe('password attempts', () => {
  it('refuses the attempt after the limit until the window ends, and says for how long', () => {
    const attempts = createPasswordAttempts(3, LIMITS);
    for (let i = 0; i < 3; i++) expect('settle' in wrong(attempts, 'a', 1000 + i)).toBe(true);
    expect(attempts.reserve('a', 20_000)).toEqual({ retryAfterSec: 41 });
    expect(attempts.reserve('b', 20_000)).toHaveProperty('settle');
    expect(attempts.reserve('a', 61_000)).toHaveProperty('settle');
  });

  it('counts checks in flight against the limit, and right passwords not at all', () => {
    const attempts = createPasswordAttempts(2, LIMITS);
    const first = attempts.reserve('a', 0);
    const second = attempts.reserve('a', 0);
    expect(attempts.reserve('a', 0)).toHaveProperty('retryAfterSec');
    if (!('settle' in first) || !('settle' in second)) throw new Error('expected reservations');
    first.settle('right', 0);
    second.settle('right', 0);
    expect(attempts.size()).toBe(0);
    expect(attempts.reserve('a', 0)).toHaveProperty('settle');
  });

  it('tracks at most maxTracked keys, dropping ended windows first', () => {
    const attempts = createPasswordAttempts(1, LIMITS);
    for (let i = 0; i < 1000; i++) wrong(attempts, `old-${i}`, 0);
    expect(attempts.size()).toBeLessThanOrEqual(LIMITS.maxTracked);
    for (let i = 0; i < 1000; i++) wrong(attempts, `new-${i}`, 120_000);
    expect(attempts.size()).toBeLessThanOrEqual(LIMITS.maxTracked);
    expect(attempts.reserve('new-999', 120_001)).toHaveProperty('retryAfterSec');
  });
});

describe('the scrypt gate', () => {
  it('runs at most `concurrent` tasks, queues `queued` more and turns the rest away', async () => {
    const run = createGate(2, 1);
    let running = 0;
    let peak = 0;
    const releases: Array<() => void> = [];
    const task = () =>
      new Promise<string>((resolve) => {
        running++;
        peak = Math.max(peak, running);
        releases.push(() => {
          running--;
          resolve('done');
        });
      });
    const results = [run(task), run(task), run(task), run(task)];
    expect(await results[3]).toBeNull();
    for (let released = 0; released < 3; ) {
      await new Promise((resolve) => setImmediate(resolve));
      for (const release of releases.splice(0)) {
        release();
        released++;
      }
    }
    expect(await Promise.all(results.slice(0, 3))).toEqual(['done', 'done', 'done']);
    expect(peak).toBe(2);
  });
});
