// The state rules: a monitor's state from its results, a component's from its monitor, incidents and maintenance, and the page's overall state.
import type { CheckSource, MonitorState } from './monitor-type.js';
import type { IncidentImpact, PageState } from './snapshot.js';

export interface MonitorStateInput {
  state: MonitorState;
  failureStreak: number;
  retries: number;
  degradedLatencyMs: number | null;
}

export interface CheckOutcome {
  ok: boolean;
  latencyMs?: number | null;
  /** The probe says the check passed but the service is degraded (e.g. fewer players than minPlayers). */
  degraded?: boolean;
  source: CheckSource;
}

export interface MonitorTransition {
  state: MonitorState;
  failureStreak: number;
  /** Why the monitor is in this state, for events and pages. */
  reason: string | null;
}

/**
 * One result moves a monitor:
 * - a pass → up, or degraded when slower than degradedLatencyMs or flagged degraded by the probe;
 * - a failure → down once more than `retries` failures come in a row; before that the state stays;
 * - a push (heartbeat) reporting down → down at once: the sender said so, there is nothing to retry.
 */
export function nextMonitorState(current: MonitorStateInput, outcome: CheckOutcome): MonitorTransition {
  if (outcome.ok) {
    const slow =
      current.degradedLatencyMs !== null && outcome.latencyMs != null && outcome.latencyMs > current.degradedLatencyMs;
    if (outcome.degraded) return { state: 'degraded', failureStreak: 0, reason: 'the check reports degraded service' };
    if (slow) return { state: 'degraded', failureStreak: 0, reason: `slower than ${current.degradedLatencyMs} ms` };
    return { state: 'up', failureStreak: 0, reason: null };
  }
  const failureStreak = current.failureStreak + 1;
  if (outcome.source === 'push' || failureStreak > current.retries)
    return {
      state: 'down',
      failureStreak,
      reason: failureStreak > 1 ? `${failureStreak} failed checks in a row` : 'check failed',
    };
  return {
    state: current.state,
    failureStreak,
    reason: `failed check ${failureStreak} of ${current.retries + 1} before down`,
  };
}

/** Results stop counting after this many intervals without one: the monitor is unknown. */
export const STALE_AFTER_INTERVALS = 3;

const RANK: Record<PageState, number> = { operational: 0, unknown: 1, maintenance: 1, degraded: 2, down: 3 };

export function monitorToPageState(state: MonitorState): PageState {
  return state === 'up' ? 'operational' : state;
}

export function impactToPageState(impact: IncidentImpact): PageState {
  if (impact === 'minor') return 'degraded';
  if (impact === 'major' || impact === 'critical') return 'down';
  return 'operational';
}

/**
 * A component shows its monitor's state (operational without a monitor), raised by active incidents
 * (minor → degraded, major or critical → down); while a maintenance window covers it, it shows maintenance.
 */
export function componentState(input: {
  monitorState: MonitorState | null;
  monitorEnabled: boolean;
  inMaintenance: boolean;
  activeImpacts: IncidentImpact[];
}): PageState {
  if (input.inMaintenance) return 'maintenance';
  let state: PageState =
    input.monitorState === null
      ? 'operational'
      : input.monitorEnabled
        ? monitorToPageState(input.monitorState)
        : 'unknown';
  for (const impact of input.activeImpacts) {
    const raised = impactToPageState(impact);
    if (RANK[raised] > RANK[state]) state = raised;
  }
  return state;
}

export interface OverallState {
  state: PageState;
  label: string;
}

/**
 * The page's overall state, first rule that applies:
 * 1. components down: at least half of the components not in maintenance, or a page-wide critical incident → down, "Major outage";
 *    fewer → degraded, "Partial outage: N of M components down" (the page still mostly works);
 * 2. components in maintenance (or page-wide maintenance) → maintenance, "Scheduled maintenance in progress";
 * 3. components degraded, or a page-wide minor/major incident → degraded, "Degraded performance";
 * 4. every component unknown → unknown, "Status unknown";
 * 5. otherwise operational: "All systems operational", or "All reporting systems operational (N not reporting)" when some are unknown.
 */
export function overallState(input: {
  components: PageState[];
  pageImpacts: IncidentImpact[];
  pageMaintenance: boolean;
}): OverallState {
  const count = (s: PageState) => input.components.filter((c) => c === s).length;
  const down = count('down');
  const maintenance = count('maintenance');
  const considered = input.components.length - maintenance;
  const pageWorst = input.pageImpacts.reduce<IncidentImpact>(
    (worst, impact) => (IMPACT_RANK[impact] > IMPACT_RANK[worst] ? impact : worst),
    'none',
  );

  if (pageWorst === 'critical' || (down > 0 && down * 2 >= considered)) return { state: 'down', label: 'Major outage' };
  if (down > 0)
    return {
      state: 'degraded',
      label: `Partial outage: ${down} of ${considered} component${considered === 1 ? '' : 's'} down`,
    };
  if (pageWorst === 'major') return { state: 'degraded', label: 'Partial outage' };
  if (maintenance > 0 || input.pageMaintenance)
    return { state: 'maintenance', label: 'Scheduled maintenance in progress' };
  if (count('degraded') > 0 || pageWorst === 'minor') return { state: 'degraded', label: 'Degraded performance' };
  const unknown = count('unknown');
  if (input.components.length > 0 && unknown === input.components.length)
    return { state: 'unknown', label: 'Status unknown' };
  if (unknown > 0)
    return { state: 'operational', label: `All reporting systems operational (${unknown} not reporting)` };
  return { state: 'operational', label: 'All systems operational' };
}

const IMPACT_RANK: Record<IncidentImpact, number> = { none: 0, minor: 1, major: 2, critical: 3 };

/** The worst state of a day from its bucket, for the uptime strip. */
export function dayState(bucket: { count: number; upCount: number; degradedCount: number } | undefined): PageState {
  if (!bucket || bucket.count === 0) return 'unknown';
  const failed = bucket.count - bucket.upCount;
  if (failed > 0) return bucket.upCount / bucket.count < DAY_DOWN_BELOW ? 'down' : 'degraded';
  return bucket.degradedCount > 0 ? 'degraded' : 'operational';
}

/** A day under this uptime shows as down in the strip; failures above it show as degraded. */
export const DAY_DOWN_BELOW = 0.95;
