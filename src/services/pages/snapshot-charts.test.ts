// The series of a component's charts on plain buckets: windows, resolution, percentiles off histograms, players, no data.
import { describe, expect, it } from 'vitest';
import { type Bucket, DAY_MS, HOUR_MS, LATENCY_BIN_UPPER_MS, latencyBin } from '../../domain/check.js';
import { CHART_WINDOWS, chartReadWindow, chartStart, componentCharts } from './snapshot-charts.js';

const NOW = Date.UTC(2026, 10, 20, 12, 30);
const THIS_HOUR = Date.UTC(2026, 10, 20, 12);
const TODAY = Date.UTC(2026, 10, 20);

/** A bucket of checks with these latencies (ms) and, when given, players seen (min, avg, max). */
function bucket(start: number, latencies: number[], players?: [number, number, number]): Bucket {
  const latencyHist = new Array<number>(LATENCY_BIN_UPPER_MS.length).fill(0);
  for (const ms of latencies) latencyHist[latencyBin(ms)]!++;
  return {
    monitorId: 'm1',
    start,
    count: Math.max(latencies.length, 1),
    upCount: latencies.length,
    degradedCount: 0,
    latencyAvg: latencies.length === 0 ? null : latencies.reduce((a, b) => a + b, 0) / latencies.length,
    latencyMin: latencies.length === 0 ? null : Math.min(...latencies),
    latencyMax: latencies.length === 0 ? null : Math.max(...latencies),
    playersMin: players?.[0] ?? null,
    playersAvg: players?.[1] ?? null,
    playersMax: players?.[2] ?? null,
    latencyHist,
  };
}

describe('component charts', () => {
  it('covers 24 hours by the hour, 7 days by 6 hours and 30 days by the UTC day, ending with the current period', () => {
    expect(
      Object.fromEntries(Object.entries(CHART_WINDOWS).map(([range, w]) => [range, [w.points, w.stepMs / HOUR_MS]])),
    ).toEqual({
      '24h': [24, 1],
      '7d': [28, 6],
      '30d': [30, 24],
    });
    expect(chartStart('24h', NOW)).toBe(THIS_HOUR - 23 * HOUR_MS);
    expect(chartStart('7d', NOW)).toBe(Date.UTC(2026, 10, 20, 12) - 27 * 6 * HOUR_MS);
    expect(chartStart('30d', NOW)).toBe(TODAY - 29 * DAY_MS);
    expect(chartReadWindow(NOW)).toEqual({ hourlyFrom: chartStart('7d', NOW), dailyFrom: TODAY - 29 * DAY_MS });
  });

  it('reads median and 95th percentile off the histograms, merging the hours of a 6-hour point', () => {
    // At a bin's upper bound a percentile is exact; inside a bin it is interpolated (18 at 50 ms, 2 at 400 ms).
    const fast = Array.from({ length: 18 }, () => 50);
    const hourly = [
      bucket(THIS_HOUR, [...fast, 400, 400]), // the current hour
      bucket(THIS_HOUR - HOUR_MS, [10, 10, 10, 10]),
      bucket(THIS_HOUR - 30 * HOUR_MS, [90]), // outside 24 h, inside 7 d
    ];
    const daily = [bucket(TODAY, [...fast, 400, 400, 10, 10, 10, 10]), bucket(TODAY - 29 * DAY_MS, [5])];
    const { latency, players } = componentCharts(hourly, daily, NOW);
    expect(players).toBeNull();
    const day = latency!['24h'];
    expect(day).toMatchObject({ start: THIS_HOUR - 23 * HOUR_MS, stepMs: HOUR_MS });
    expect(day.p50).toHaveLength(24);
    expect(day.p50.slice(-2)).toEqual([10, 50]);
    expect(day.p95.slice(-2)).toEqual([10, 350]);
    expect(day.p50.slice(0, -2).every((v) => v === null)).toBe(true);
    // The current 6-hour point (12:00–18:00) holds the current hour; the one before (06:00–12:00) the hour before.
    const week = latency!['7d'];
    expect(week.p50).toHaveLength(28);
    expect(week.p50.slice(-2)).toEqual([10, 50]);
    expect(week.p50.filter((v) => v !== null)).toHaveLength(3);
    const month = latency!['30d'];
    expect(month.p50).toHaveLength(30);
    expect(month.p50[0]).toBe(5);
    expect(month.p50.at(-1)).toBeGreaterThan(35);
    expect(month.p50.at(-1)).toBeLessThanOrEqual(50);
    // Over the window: 25 checks, the 5 ms one of 29 days ago included.
    expect(month.summary.p50).toBeGreaterThan(35);
    expect(month.summary.p95).toBeGreaterThan(300);
    expect(month.summary.p95).toBeLessThanOrEqual(400);
  });

  it('gives fewest, average (by checks) and most players per point, and over the window', () => {
    const hourly = [bucket(THIS_HOUR, [30, 30, 30], [10, 12, 15]), bucket(THIS_HOUR - HOUR_MS, [30], [2, 4, 6])];
    const { players } = componentCharts(hourly, [], NOW);
    expect(players!['24h'].min.slice(-2)).toEqual([2, 10]);
    expect(players!['24h'].avg.slice(-2)).toEqual([4, 12]);
    expect(players!['24h'].max.slice(-2)).toEqual([6, 15]);
    expect(players!['24h'].summary).toEqual({ min: 2, avg: 10, max: 15 });
    // 11:00 belongs to the 6-hour point of 06:00–12:00, 12:00 to the current one.
    expect(players!['7d'].max.slice(-2)).toEqual([6, 15]);
    expect(players!['30d'].max.every((v) => v === null)).toBe(true);
  });

  it('has no chart for a monitor that measured no response time and reported no players', () => {
    expect(componentCharts([bucket(THIS_HOUR, [])], [bucket(TODAY, [])], NOW)).toEqual({
      latency: null,
      players: null,
    });
    expect(componentCharts([], [], NOW)).toEqual({ latency: null, players: null });
  });

  it('ignores buckets outside the windows', () => {
    const { latency } = componentCharts(
      [bucket(THIS_HOUR + 6 * HOUR_MS, [50]), bucket(chartStart('7d', NOW) - HOUR_MS, [50])],
      [bucket(TODAY - 30 * DAY_MS, [50])],
      NOW,
    );
    expect(latency).toBeNull();
  });
});
