// Several vantage points: each location's latest result, which locations vote, and the state a quorum of them decides.
import type { MonitorState } from './monitor-type.js';

/** The edge's location id; a relay's is its id. */
export const EDGE_LOCATION = 'edge';

/** A location's latest result, as a multi-location monitor keeps it (monitors.location_results). */
export interface LocationResult {
  at: number;
  ok: boolean;
  /** Passed, but slower than the monitor's degradedLatencyMs or flagged degraded by the probe. */
  degraded: boolean;
  latencyMs: number | null;
  error: string | null;
  /** This location's failed checks in a row: it sees the monitor down once they pass the monitor's retries. */
  failureStreak: number;
  /** How alerts name the location: "edge" or the relay's key. */
  label: string;
}

export type LocationResults = Record<string, LocationResult>;

/** A location votes while its latest result is at most this many intervals (plus the timeout) old. */
export const VOTE_WITHIN_INTERVALS = 2;

/** How old a location's latest result may be and still vote. */
export function voteWindowMs(monitor: { intervalSec: number; timeoutMs: number }): number {
  return VOTE_WITHIN_INTERVALS * monitor.intervalSec * 1000 + monitor.timeoutMs;
}

/** What one location says: down only once its failures in a row pass `retries` (as a single-location monitor's do). */
export type LocationVerdict = 'up' | 'degraded' | 'failing' | 'down';

export function locationVerdict(result: LocationResult, retries: number): LocationVerdict {
  if (result.ok) return result.degraded ? 'degraded' : 'up';
  return result.failureStreak > retries ? 'down' : 'failing';
}

export interface QuorumInput {
  /** Every location of the monitor: its own place first, then its other locations. */
  locations: readonly string[];
  results: LocationResults;
  /** N: down when at least N voting locations see it down; null: a majority of the voting locations. */
  quorum: number | null;
  retries: number;
  /** The time of judgement (the newest result's). */
  at: number;
  windowMs: number;
}

export interface QuorumDecision {
  /** null: no location voted (the state stays as it is). */
  state: Exclude<MonitorState, 'unknown'> | null;
  /** Voting locations that see the monitor down, by label, in the monitor's order of locations. */
  down: string[];
  /** Voting locations, by id. */
  voting: string[];
  /** Locations needed to decide down: the quorum, at most the voting locations. */
  needed: number;
  /** "down from edge, fra (2 of 3)", "slow from fra (1 of 2)", or null when up everywhere. */
  reason: string | null;
}

/** The default quorum of M voting locations: a majority. */
export function majorityOf(voters: number): number {
  return Math.floor(voters / 2) + 1;
}

/**
 * The monitor's state from its locations: a location votes while it was heard from within the window (a silent one
 * does not vote); down when at least `needed` voters see it down, degraded when that many see it down or degraded,
 * up otherwise. `needed` is the quorum (a majority of the voters by default), never more than the voters, so a monitor
 * whose other locations fell silent is still judged by those left.
 */
export function decideByQuorum(input: QuorumInput): QuorumDecision {
  const voting = input.locations.filter((id) => {
    const result = input.results[id];
    return result !== undefined && input.at - result.at <= input.windowMs;
  });
  if (voting.length === 0) return { state: null, down: [], voting, needed: 0, reason: null };
  const needed = Math.min(input.quorum ?? majorityOf(voting.length), voting.length);
  const verdicts = voting.map((id) => {
    const result = input.results[id] as LocationResult;
    return { label: result.label, verdict: locationVerdict(result, input.retries) };
  });
  const down = verdicts.filter((v) => v.verdict === 'down').map((v) => v.label);
  const of = `of ${voting.length}`;
  if (down.length >= needed)
    return { state: 'down', down, voting, needed, reason: `down from ${down.join(', ')} (${down.length} ${of})` };
  const slow = verdicts.filter((v) => v.verdict === 'down' || v.verdict === 'degraded').map((v) => v.label);
  if (slow.length >= needed)
    return {
      state: 'degraded',
      down,
      voting,
      needed,
      reason: `degraded from ${slow.join(', ')} (${slow.length} ${of})`,
    };
  const reason = down.length > 0 ? `down from ${down.join(', ')} (${down.length} ${of}, ${needed} needed)` : null;
  return { state: 'up', down, voting, needed, reason };
}

/** A location's result after one more check there (its failures in a row counted on from the previous one). */
export function nextLocationResult(
  previous: LocationResult | undefined,
  check: Omit<LocationResult, 'failureStreak'>,
): LocationResult {
  return { ...check, failureStreak: check.ok ? 0 : (previous?.failureStreak ?? 0) + 1 };
}

/** The stored JSON of a monitor's location results; anything unreadable counts as none. */
export function parseLocationResults(json: string | null): LocationResults {
  if (json === null) return {};
  try {
    const parsed = JSON.parse(json) as unknown;
    return typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed) ? (parsed as LocationResults) : {};
  } catch {
    return {};
  }
}
