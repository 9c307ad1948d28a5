import { describe, expect, it } from 'vitest';
import { naturalGranularity, presetRange } from './range';

const NOW = Date.UTC(2026, 2, 15, 23, 30); // 2026-03-15, late in the UTC day

describe('report ranges', () => {
  it('count the last N days back from today, today included', () => {
    expect(presetRange('last-7', NOW)).toEqual({ from: '2026-03-09', to: '2026-03-15' });
    expect(presetRange('last-30', NOW)).toEqual({ from: '2026-02-14', to: '2026-03-15' });
    expect(presetRange('last-90', NOW)).toEqual({ from: '2025-12-16', to: '2026-03-15' });
  });

  it('give this month so far, the whole of last month, and twelve months from the first of a month', () => {
    expect(presetRange('this-month', NOW)).toEqual({ from: '2026-03-01', to: '2026-03-15' });
    expect(presetRange('last-month', NOW)).toEqual({ from: '2026-02-01', to: '2026-02-28' });
    expect(presetRange('last-month', Date.UTC(2026, 0, 10))).toEqual({ from: '2025-12-01', to: '2025-12-31' });
    expect(presetRange('last-12-months', NOW)).toEqual({ from: '2025-04-01', to: '2026-03-15' });
  });

  it('leave a custom range to the user', () => {
    expect(presetRange('custom', NOW)).toBeNull();
  });

  it('show a quarter per day and anything longer per month', () => {
    expect(naturalGranularity({ from: '2025-12-16', to: '2026-03-15' })).toBe('day');
    expect(naturalGranularity({ from: '2025-04-01', to: '2026-03-15' })).toBe('month');
  });
});
