// A component's response time per place: averages per point and window, the places in the order given, none at all
// when no place measured anything.
import { describe, expect, it } from 'vitest';
import { HOUR_MS } from '../../domain/check.js';
import { locationCharts } from './snapshot-location-charts.js';

const NOW = Date.UTC(2026, 10, 29, 12, 30);
const HOUR = Math.floor(NOW / HOUR_MS) * HOUR_MS;
const bucket = (location: string, start: number, latencies: number[]) => ({
  monitorId: 'mon_a',
  location,
  start,
  count: latencies.length,
  upCount: latencies.length,
  latencyCount: latencies.length,
  latencySum: latencies.reduce((a, b) => a + b, 0),
  latencyMin: Math.min(...latencies),
  latencyMax: Math.max(...latencies),
});
const places = [
  { id: 'edge', name: null },
  { id: 'rly_fra', name: 'Frankfurt' },
];

describe('charts per location', () => {
  it("averages each place's checks per point and over each window, own place first", () => {
    const charts = locationCharts(
      [bucket('rly_fra', HOUR, [40, 60]), bucket('edge', HOUR - HOUR_MS, [10]), bucket('edge', HOUR, [20, 30])],
      places,
      NOW,
    );
    expect(charts?.map((c) => c.name)).toEqual([null, 'Frankfurt']);
    const edge = charts?.[0]?.latency['24h'];
    expect(edge?.avg.slice(-2)).toEqual([10, 25]);
    expect(edge?.summary.avg).toBe(20);
    expect(charts?.[1]?.latency['24h'].avg.slice(-2)).toEqual([null, 50]);
    // The 7-day window's points are six hours (12:00–18:00 holds only the current hour here); the 30-day one's a day.
    expect(charts?.[0]?.latency['7d'].avg.slice(-2)).toEqual([10, 25]);
    expect(charts?.[0]?.latency['30d'].avg.at(-1)).toBe(20);
    expect(charts?.[1]?.latency['30d'].summary.avg).toBe(50);
  });

  it('leaves out a place not listed, and gives nothing when no place measured anything', () => {
    expect(locationCharts([bucket('rly_gone', HOUR, [5])], places, NOW)).toBeUndefined();
    expect(locationCharts([], places, NOW)).toBeUndefined();
  });
});
