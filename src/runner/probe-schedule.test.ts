// The probe schedule under a large update: a reload of tens of thousands of monitors, or a cluster's shards handed over.
import { afterEach, describe, expect, it } from 'vitest';
import type { ScheduledMonitor } from '../domain/monitor.js';
import { createLogger } from '../logger.js';
import { ANY_TARGET } from '../net/target-guard.js';
import { createProbeSchedule, type ProbeSchedule, YIELD_EVERY } from './probe-schedule.js';

const monitors = (count: number, from = 0): ScheduledMonitor[] =>
  Array.from({ length: count }, (_, i) => ({
    id: `mon_${from + i}`,
    key: `m${from + i}`,
    // Hourly: nothing comes due while the test runs.
    intervalSec: 3600,
    timeoutMs: 1000,
    type: 'tcp',
    config: { host: '127.0.0.1', port: 1 },
  }));

describe('probe schedule updates', () => {
  let schedule: ProbeSchedule | undefined;
  afterEach(async () => {
    await schedule?.stop();
  });

  const create = () =>
    createProbeSchedule<ScheduledMonitor>({
      logger: createLogger('silent'),
      concurrency: 4,
      onResult: async () => {},
      guardFor: () => ANY_TARGET,
    });

  it('lets a timer due meanwhile run during an update of many monitors', async () => {
    schedule = create();
    let fired = 0;
    // A check due now: it must not wait for the whole list to be scheduled.
    const due = new Promise<void>((resolve) => setTimeout(resolve, 0)).then(() => {
      fired = schedule?.size() ?? -1;
    });
    await schedule.update(monitors(20 * YIELD_EVERY));
    await due;
    expect(fired).toBeGreaterThan(0);
    expect(fired).toBeLessThan(20 * YIELD_EVERY);
    expect(schedule.size()).toBe(20 * YIELD_EVERY);
  });

  it('applies updates in the order they were called, even when the first one takes turns', async () => {
    schedule = create();
    const first = schedule.update(monitors(5 * YIELD_EVERY));
    const second = schedule.update(monitors(10, 1_000_000));
    expect(schedule.size()).toBeLessThan(5 * YIELD_EVERY); // the first is still under way
    await Promise.all([first, second]);
    expect(schedule.size()).toBe(10);
  });

  it('schedules a short list at once, as before', () => {
    schedule = create();
    void schedule.update(monitors(10));
    expect(schedule.size()).toBe(10);
  });

  it('measures lateness from when a check was due, to a fraction of a millisecond', async () => {
    let ran = 0;
    schedule = createProbeSchedule<ScheduledMonitor>({
      logger: createLogger('silent'),
      concurrency: 4,
      onResult: async () => {
        ran++;
      },
      guardFor: () => ANY_TARGET,
      // Due 200 ms ago, as a monitor handed over overdue is.
      firstDueFor: (_monitor, now) => ({ at: now - 200 }),
    });
    await schedule.update(monitors(3));
    // The event loop held up 30 ms more before the timers can fire.
    const until = performance.now() + 30;
    while (performance.now() < until);
    while (ran < 3) await new Promise((resolve) => setTimeout(resolve, 5));
    const { lateness } = schedule.stats();
    expect(lateness).toHaveLength(3);
    for (const late of lateness) expect(late).toBeGreaterThanOrEqual(230);
    // Whole milliseconds on the wall clock would make every sample a whole number.
    expect(lateness.some((late) => !Number.isInteger(late))).toBe(true);
  });
});
