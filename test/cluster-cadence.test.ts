// The cadence analysis the cluster tests rest on (test/cluster-cadence.ts): what "checked every (monitor, interval)
// exactly once" counts, on made-up check times.
import { describe, expect, it } from 'vitest';
import { cadence } from './cluster-cadence.js';

describe('cadence: what "checked exactly once" counts', () => {
  it('counts a check in each interval, a duplicate, a miss, and excuses a failover window', () => {
    const times = new Map([
      ['steady', [1_000, 11_600, 21_000, 31_000]],
      ['twice', [1_000, 11_000, 11_500, 21_000]],
      ['gap', [1_000, 21_000, 31_000]],
      ['failover', [1_000, 11_000, 35_000]],
    ]);
    const report = cadence(times, {
      intervalMs: 10_000,
      from: 0,
      to: 32_000,
      excused: [{ from: 24_000, to: 40_000, monitors: new Set(['failover']) }],
    });
    expect(report.duplicates).toEqual([{ monitorId: 'twice', at: 11_500, gapMs: 500 }]);
    expect(report.missed).toEqual([{ monitorId: 'gap', at: 21_000, gapMs: 20_000, intervals: 1 }]);
    // "failover": its last check before `to` is 11 s; the gap overlaps the excused window.
    expect(report.excused).toEqual([{ monitorId: 'failover', from: 11_000, to: 32_000 }]);
    expect(report.maxDriftMs).toBe(600);
  });
});
