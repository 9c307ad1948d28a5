// A result of a monitor with several locations: kept as its location's latest, and the state decided over the
// locations that vote (domain/vantage.ts); a single-location monitor never comes here.
import type { MonitorStateRow, MonitorVantage } from '../domain/monitor.js';
import type { CheckSource } from '../domain/monitor-type.js';
import type { MonitorTransition } from '../domain/states.js';
import {
  decideByQuorum,
  EDGE_LOCATION,
  type LocationResults,
  nextLocationResult,
  parseLocationResults,
} from '../domain/vantage.js';

export interface LocatedResult {
  source: CheckSource;
  /** 'edge' or the relay's id; absent: the edge for an edge result. */
  location?: string | undefined;
  /** How alerts name the location (the relay's key); absent: the location id. */
  locationLabel?: string | undefined;
  ok: boolean;
  latencyMs: number | null;
  error: string | null;
  message: string | null;
  /** The probe says degraded. */
  degraded: boolean;
  checkedAt: number;
}

/** Where a result was checked: the relay's id it came with, or the edge. */
export function locationOf(result: Pick<LocatedResult, 'source' | 'location'>): string | null {
  return result.location ?? (result.source === 'edge' ? EDGE_LOCATION : null);
}

export interface LocationStep {
  transition: MonitorTransition;
  /** The monitor's location results with this one (JSON, as stored). */
  locationResults: string;
}

/**
 * The monitor's next state once this location's result counts; null when it is older than the location's latest (it
 * goes into history, and moves nothing). The reason names the locations that see it down.
 */
export function locationStep(
  monitor: MonitorStateRow,
  vantage: MonitorVantage,
  location: string,
  result: LocatedResult,
): LocationStep | null {
  const results: LocationResults = parseLocationResults(monitor.locationResults ?? null);
  const previous = results[location];
  if (previous !== undefined && result.checkedAt < previous.at) return null;
  const slow =
    monitor.degradedLatencyMs !== null && result.latencyMs !== null && result.latencyMs > monitor.degradedLatencyMs;
  results[location] = nextLocationResult(previous, {
    at: result.checkedAt,
    ok: result.ok,
    degraded: result.ok && (result.degraded || slow),
    latencyMs: result.latencyMs,
    error: result.ok ? null : (result.error ?? result.message),
    label: result.locationLabel ?? previous?.label ?? location,
  });
  const decision = decideByQuorum({
    locations: vantage.locations,
    results,
    quorum: vantage.quorum,
    retries: monitor.retries,
    at: result.checkedAt,
    windowMs: vantage.windowMs,
  });
  return {
    transition: {
      state: decision.state ?? monitor.state,
      failureStreak: decision.down.length,
      reason: decision.reason,
    },
    locationResults: JSON.stringify(results),
  };
}
