import { describe, expect, it } from 'vitest';
import {
  decideByQuorum,
  type LocationResult,
  type LocationResults,
  locationVerdict,
  majorityOf,
  nextLocationResult,
  parseLocationResults,
  type QuorumInput,
  voteWindowMs,
} from './vantage.js';

const T = 1_000_000;
const WINDOW = voteWindowMs({ intervalSec: 60, timeoutMs: 10_000 });
const result = (ok: boolean, over: Partial<LocationResult> = {}): LocationResult => ({
  at: T,
  ok,
  degraded: false,
  latencyMs: ok ? 40 : null,
  error: ok ? null : 'refused',
  failureStreak: ok ? 0 : 1,
  label: 'x',
  ...over,
});
const decide = (results: Record<string, LocationResult>, over: Partial<QuorumInput> = {}) =>
  decideByQuorum({
    locations: ['edge', 'rly_fra', 'rly_nyc'],
    results: Object.fromEntries(
      Object.entries(results).map(([id, r]) => [id, { ...r, label: id.replace('rly_', '') }]),
    ),
    quorum: null,
    retries: 0,
    at: T,
    windowMs: WINDOW,
    ...over,
  });

describe('the quorum of locations', () => {
  it('is a majority by default', () => {
    expect([1, 2, 3, 4, 5].map(majorityOf)).toEqual([1, 2, 2, 3, 3]);
  });

  it('stays up with 1 of 3 down, goes down with 2 of 3 and names them in order', () => {
    const one = decide({ edge: result(false), rly_fra: result(true), rly_nyc: result(true) });
    expect(one).toMatchObject({ state: 'up', down: ['edge'], needed: 2 });
    expect(one.reason).toBe('down from edge (1 of 3, 2 needed)');
    const two = decide({ edge: result(false), rly_fra: result(true), rly_nyc: result(false) });
    expect(two).toMatchObject({ state: 'down', down: ['edge', 'nyc'], reason: 'down from edge, nyc (2 of 3)' });
  });

  it('leaves a silent location out of the vote, and the quorum never above the voters', () => {
    const stale = T - WINDOW - 1;
    const silent = decide({ edge: result(false), rly_fra: result(true), rly_nyc: result(false, { at: stale }) });
    expect(silent).toMatchObject({ state: 'up', voting: ['edge', 'rly_fra'], needed: 2 });
    const alone = decide({ edge: result(false), rly_fra: result(true, { at: stale }) }, { quorum: 3 });
    expect(alone).toMatchObject({ state: 'down', voting: ['edge'], needed: 1, reason: 'down from edge (1 of 1)' });
    expect(decide({ edge: result(true, { at: stale }) }).state).toBeNull();
  });

  it('takes an explicit quorum: any one location of three with quorum 1', () => {
    expect(decide({ edge: result(true), rly_fra: result(false), rly_nyc: result(true) }, { quorum: 1 }).state).toBe(
      'down',
    );
    expect(decide({ edge: result(false), rly_fra: result(false), rly_nyc: result(true) }, { quorum: 3 }).state).toBe(
      'up',
    );
  });

  it("applies the monitor's retries at each location", () => {
    expect(locationVerdict(result(false, { failureStreak: 1 }), 1)).toBe('failing');
    expect(locationVerdict(result(false, { failureStreak: 2 }), 1)).toBe('down');
    const failing = decide({ edge: result(false), rly_fra: result(false), rly_nyc: result(true) }, { retries: 1 });
    expect(failing.state).toBe('up');
  });

  it('is degraded when enough locations see it slow or down', () => {
    const slow = decide({ edge: result(true, { degraded: true }), rly_fra: result(false), rly_nyc: result(true) });
    expect(slow).toMatchObject({ state: 'degraded', reason: 'degraded from edge, fra (2 of 3)' });
  });

  it('counts failures in a row per location, and reads stored results defensively', () => {
    const first = nextLocationResult(undefined, { ...result(false), label: 'edge' });
    const second = nextLocationResult(first, { ...result(false), label: 'edge' });
    expect([first.failureStreak, second.failureStreak]).toEqual([1, 2]);
    expect(nextLocationResult(second, { ...result(true), label: 'edge' }).failureStreak).toBe(0);
    const stored: LocationResults = { edge: second };
    expect(parseLocationResults(JSON.stringify(stored))).toEqual(stored);
    expect(parseLocationResults('not json')).toEqual({});
    expect(parseLocationResults(null)).toEqual({});
  });
});
