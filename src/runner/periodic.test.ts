import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createLogger } from '../logger.js';
import { createPeriodicSweep } from './periodic.js';

describe('a periodic sweep', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('sweeps on its timer only while its gate is open (a cluster singleton held)', async () => {
    let passes = 0;
    let open = false;
    const sweep = createPeriodicSweep(
      async () => {
        passes++;
      },
      { everyMs: 1000, logger: createLogger('silent'), failure: 'failed', gate: () => open },
    );
    sweep.start();
    await vi.advanceTimersByTimeAsync(3500);
    expect(passes).toBe(0);
    open = true;
    await vi.advanceTimersByTimeAsync(2000);
    expect(passes).toBe(2);
    open = false;
    await vi.advanceTimersByTimeAsync(2000);
    expect(passes).toBe(2);
    // Called directly (tests, a one-off pass), it runs whatever the gate says.
    await sweep.sweep();
    expect(passes).toBe(3);
    await sweep.stop();
  });

  it('sweeps on every tick without a gate', async () => {
    let passes = 0;
    const sweep = createPeriodicSweep(
      async () => {
        passes++;
      },
      { everyMs: 1000, logger: createLogger('silent'), failure: 'failed' },
    );
    sweep.start();
    await vi.advanceTimersByTimeAsync(3500);
    expect(passes).toBe(3);
    await sweep.stop();
  });
});
