// The edge runner: every enabled edge monitor of the store on the shared probe schedule, each result through ingest.
import type { Bus } from '../bus/bus.js';
import { type Clock, systemClock } from '../domain/clock.js';
import { probeTargetPolicies } from '../domain/organization.js';
import type { ProbeTargetPolicy } from '../domain/security.js';
import { type Logger, logFailure } from '../logger.js';
import type { CheckOutcome, WardenMetrics } from '../metrics/recorder.js';
import { PUBLIC_TARGETS_ONLY, type TargetGuard, targetGuard } from '../net/target-guard.js';
import type { ProbeDefinition, ProbeResult } from '../probes/probe.js';
import type { Store } from '../store/index.js';
import type { Ingest } from './ingest.js';
import {
  createProbeSchedule,
  type FirstDue,
  onCadence,
  type ProbeSchedule,
  type ScheduledMonitor,
  type ScheduleStats,
  spread,
  YIELD_EVERY,
  yieldingEvery,
} from './probe-schedule.js';

/** Probes running at once across all monitors; more wait their turn (and show up as lateness). */
export const DEFAULT_CONCURRENCY = 256;
/** Monitors are re-read this often even without a change event (changes made by another process). */
const RELOAD_EVERY_MS = 60_000;
/** How often the runner logs what it did: checks run and how late they started. */
const REPORT_EVERY_MS = 60_000;
/**
 * A monitor handed over overdue runs soon, spread rather than all at the same instant: over as long as the most
 * overdue of those taken over with it is overdue (at least 2 s, at most 10 s or a sixth of its interval). A dead
 * process's overdue monitors are the ones due while its leases lapsed (a quarter of them at a 15 s TTL and 60 s
 * intervals): packed into 2 s they made the survivors start their own checks 1.7 s late in that minute (100,000
 * monitors over three processes), while 10 s keeps them within the failover's 30 s. A monitor that fell due while its shard moved between two live processes is a second or two
 * overdue, and runs within 2 s.
 */
const OVERDUE_SPREAD_MS = { least: 2_000, most: 10_000 };

/** The nearest-rank percentile of samples sorted ascending. */
function percentile(sorted: number[], share: number): number {
  return sorted.length === 0 ? 0 : (sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * share))] as number);
}

/** Milliseconds to a tenth: a p99 of a few ms in whole ones would be a quarter off. */
const tenths = (ms: number) => Math.round(ms * 10) / 10;

/** Lateness (ms between when a run was due and when it started) of runs since a given run. */
function latenessReport(schedule: { latenessSince(since: number): number[] }, since: number) {
  const sorted = schedule.latenessSince(since).sort((a, b) => a - b);
  return {
    lateP50Ms: tenths(percentile(sorted, 0.5)),
    lateP99Ms: tenths(percentile(sorted, 0.99)),
    lateMaxMs: tenths(sorted.at(-1) ?? 0),
  };
}

export type SchedulerStats = ScheduleStats;

/** A check as warden_checks_total counts it. */
function checkOutcome(result: ProbeResult): CheckOutcome {
  return !result.ok ? 'down' : result.degraded ? 'degraded' : 'up';
}

export interface Scheduler {
  start(): Promise<void>;
  reload(): Promise<void>;
  stats(): SchedulerStats;
  /** Stops scheduling, aborts running probes and waits for their results to be recorded. */
  stop(): Promise<void>;
}

export interface SchedulerDeps {
  store: Store;
  ingest: Ingest;
  bus: Bus;
  clock: Clock;
  logger: Logger;
  concurrency?: number;
  /** WARDEN_PROBE_PRIVATE_TARGETS: what organizations without their own probe-target policy get; `auto` by default. */
  probePrivateTargets?: ProbeTargetPolicy | 'auto';
  /** Tests substitute probes; the registry by default. */
  probeFor?: (monitor: ScheduledMonitor) => ProbeDefinition;
  random?: () => number;
  /**
   * Cluster mode: whether this instance runs a monitor's checks (it holds the lease of its shard); every edge monitor
   * when absent. A monitor newly owned resumes where its previous runner left it: first due one interval after its
   * stored last check (at once if that passed), so a handover neither checks it twice nor leaves a gap. Call reload()
   * when the answer changes; it resolves once the checks in flight of the monitors no longer owned are recorded.
   */
  owns?: (monitorId: string) => boolean;
  /** Each check counted, timed and its lateness measured (warden_checks_total, …); absent, nothing is. */
  metrics?: WardenMetrics | undefined;
}

/**
 * A monitor as the edge runner holds it: with its organization, whose probe-target policy its probes run under, and
 * its last check when read.
 */
type EdgeMonitor = ScheduledMonitor & { organizationId: string; lastCheckAt: number | null };

export function createScheduler(deps: SchedulerDeps): Scheduler {
  const concurrency = deps.concurrency ?? DEFAULT_CONCURRENCY;
  /** Each organization's probe-target guard, re-read with the monitors; a monitor of an organization not read yet gets the strict one. */
  let guards = new Map<string, TargetGuard>();
  /** How overdue the most overdue monitor taken over by the load under way is: its overdue ones share that window. */
  const takeover = { overdueMs: 0 };
  const schedule = edgeSchedule(
    deps,
    concurrency,
    (monitor) => guards.get(monitor.organizationId) ?? PUBLIC_TARGETS_ONLY,
    takeover,
  );
  const report = runReport(schedule, deps.logger);
  let started = false;
  let stopped = false;
  let reloadTimer: NodeJS.Timeout | null = null;
  let reportTimer: NodeJS.Timeout | null = null;
  let pendingReload: NodeJS.Timeout | null = null;
  let unsubscribe: (() => void) | null = null;

  /** The monitors last loaded, by id, with the version they were read at. */
  let known: Known = new Map();
  /**
   * The version of every enabled edge monitor (owned or not) the last load read; null before the first. The list read
   * at start spreads its first runs (a restart does not fire thousands of checks at once); a monitor created, resumed
   * or changed since the last load is checked at once. One new to this process but unchanged (a cluster shard handed
   * over) is not: it resumes where its previous runner left it.
   */
  let seenVersions: Map<string, number> | null = null;

  /**
   * Reads only what scheduling needs, and keeps the object of every monitor that did not change: with thousands of
   * monitors re-read every minute, fresh copies would be garbage the heap carries until its next major collection.
   */
  async function load(): Promise<void> {
    // Before start (a cluster's first shards arrive before the runner starts) there is nothing to update: start loads.
    if (!started || stopped) return;
    // Shards given up stop first, without a read: their leases may be lapsing because the database is away, and this
    // process must not run them on (nor store a result of theirs when it is back) while another takes them over.
    if (deps.owns) await dropUnowned(deps.owns);
    // A handful of rows: the policies follow a changed setting and a newly created organization within a reload.
    const policies = probeTargetPolicies(await deps.store.organizations.list(), deps.probePrivateTargets ?? 'auto');
    guards = new Map([...policies].map(([id, policy]) => [id, targetGuard(policy)]));
    // Versions first: with thousands of monitors re-read every minute, only the ones that changed are read whole.
    const owns = deps.owns ?? (() => true);
    const all = await deps.store.schedule.listVersions('edge');
    // A list of a hundred thousand gives the event loop turns: the checks due meanwhile start on time.
    const [versions, stale, listed] = [[] as typeof all, [] as string[], new Map<string, number>()];
    const turns = yieldingEvery(YIELD_EVERY);
    for (const version of all) {
      const turn = turns();
      if (turn) {
        await turn;
        if (stopped) return;
      }
      listed.set(version.id, version.updatedAt);
      if (!owns(version.id)) continue;
      versions.push(version);
      if (known.get(version.id)?.updatedAt !== version.updatedAt) stale.push(version.id);
    }
    const fresh: Known = new Map();
    for (const { updatedAt, ...monitor } of await deps.store.schedule.listScheduled('edge', stale))
      fresh.set(monitor.id, { updatedAt, monitor });
    if (stopped) return;
    const next = merged(versions, fresh, known, owns);
    const changed = stale.length > 0 || next.size !== known.size;
    // Only a changed list can hold monitors new to this process: the walk is skipped on the minute's quiet reload.
    if (changed) takeover.overdueMs = mostOverdue(next, known, deps.clock.now());
    known = next;
    const seen = seenVersions;
    seenVersions = listed;
    // Changed since the last load: not listed then (created, resumed) or listed at another version.
    const immediate = (monitor: EdgeMonitor) =>
      seen !== null && fresh.has(monitor.id) && seen.get(monitor.id) !== fresh.get(monitor.id)?.updatedAt;
    if (changed)
      await schedule.update(
        [...next.values()].map((entry) => entry.monitor),
        { immediate },
      );
  }

  async function dropUnowned(owns: (monitorId: string) => boolean): Promise<void> {
    const kept = new Map([...known].filter(([id]) => owns(id)));
    if (kept.size === known.size) return;
    known = kept;
    await schedule.update([...kept.values()].map((entry) => entry.monitor));
  }

  /** One load at a time, in order: a load that read an older ownership must not apply it after a newer one. */
  let loading: Promise<void> = Promise.resolve();
  function reload(): Promise<void> {
    const next = loading.catch(() => {}).then(load);
    loading = next;
    return next;
  }

  function reloadSoon(): void {
    if (pendingReload || stopped) return;
    pendingReload = setTimeout(() => {
      pendingReload = null;
      reload().catch((error) => logFailure(deps.logger, error, 'reloading monitors failed'));
    }, 50);
  }

  return {
    async start() {
      started = true;
      await reload();
      unsubscribe = deps.bus.subscribe('monitors.changed', reloadSoon);
      reloadTimer = setInterval(reloadSoon, RELOAD_EVERY_MS);
      reloadTimer.unref();
      reportTimer = setInterval(() => report('edge runner: checks in the last minute'), REPORT_EVERY_MS);
      reportTimer.unref();
      deps.logger.info({ monitors: schedule.size(), concurrency }, 'edge runner started');
    },
    reload,
    stats: () => schedule.stats(),
    async stop() {
      stopped = true;
      unsubscribe?.();
      if (reloadTimer) clearInterval(reloadTimer);
      if (reportTimer) clearInterval(reportTimer);
      if (pendingReload) clearTimeout(pendingReload);
      const monitors = schedule.size();
      await schedule.stop();
      report.summary('edge runner stopped', monitors);
    },
  };
}

/**
 * Logs the runs since the last report; a quiet minute is not logged. The summary at stop always is, and counts every
 * run since the start.
 */
function runReport(schedule: ProbeSchedule<EdgeMonitor>, logger: Logger) {
  let reportedRuns = 0;
  function report(what: string, monitors = schedule.size(), always = false): void {
    const stats = schedule.stats();
    if (stats.runs === reportedRuns && !always) return;
    logger.info(
      {
        monitors,
        checks: stats.runs - reportedRuns,
        ...latenessReport(schedule, reportedRuns),
        waiting: stats.waiting,
      },
      what,
    );
    reportedRuns = stats.runs;
  }
  return Object.assign(report, {
    summary(what: string, monitors: number): void {
      reportedRuns = 0;
      report(what, monitors, true);
    },
  });
}

/**
 * A monitor handed over: one interval after its last check, or soon if that passed (overdueSpread), then back on the
 * cadence of its last check. One never checked runs at once when asked (created or changed), else at its slot: the
 * same moment of every interval on every process, so a shard that moves while a cluster starts cold does not push
 * its monitors' first checks an interval further with each move.
 */
function resumeAt(monitor: EdgeMonitor, now: number, immediate: boolean, mostOverdueMs: number): FirstDue | undefined {
  if (monitor.lastCheckAt === null)
    return immediate ? { at: now } : { at: firstSlot(monitor.id, monitor.intervalSec * 1000, now) };
  const due = monitor.lastCheckAt + monitor.intervalSec * 1000;
  if (due >= now) return { at: due };
  return {
    at:
      now +
      Math.floor(spread(monitor.id) * overdueSpread(Math.max(now - due, mostOverdueMs), monitor.intervalSec * 1000)),
    cadence: monitor.lastCheckAt,
  };
}

/** A never-checked monitor's first slot at or after `now`: its spread (from its id) into intervals counted from 1970. */
export function firstSlot(id: string, intervalMs: number, now: number): number {
  return onCadence(Math.floor(spread(id) * intervalMs), intervalMs, now);
}

/**
 * Of the monitors new to this process (`next` but not `before`), how overdue the most overdue is: the overdue ones of
 * one takeover share a window sized by it, so that a dead process's (overdue by up to its lease's lapse) spread evenly
 * over 10 s rather than the barely overdue among them all in the first seconds, while a shard moved between live
 * processes (its monitors a second or two overdue at most) is caught up within 2 s.
 */
function mostOverdue(next: Known, before: Known, now: number): number {
  let most = 0;
  for (const [id, { monitor }] of next)
    if (monitor.lastCheckAt !== null && !before.has(id))
      most = Math.max(most, now - monitor.lastCheckAt - monitor.intervalSec * 1000);
  return most;
}

/** Over how long a monitor overdue by `overdueMs` is spread (see OVERDUE_SPREAD_MS). */
export function overdueSpread(overdueMs: number, intervalMs: number): number {
  return Math.min(Math.max(overdueMs, OVERDUE_SPREAD_MS.least), OVERDUE_SPREAD_MS.most, intervalMs / 6);
}

type Known = Map<string, { updatedAt: number; monitor: EdgeMonitor }>;

/**
 * The monitors to run after a reload: each listed version's fresh read, else the one known. A monitor changed between
 * the two reads keeps its previous version (a new one stays out) until the next reload; ownership is asked again, so a
 * shard handed back while the rows were read is dropped now, not at the next reload.
 */
function merged(versions: { id: string }[], fresh: Known, known: Known, owns: (id: string) => boolean): Known {
  const next: Known = new Map();
  for (const { id } of versions) {
    const entry = fresh.get(id) ?? known.get(id);
    if (entry && owns(id)) next.set(id, entry);
  }
  return next;
}

/** The edge's probe schedule: results go to ingest, checks are counted in the metrics, a handed-over monitor resumes. */
function edgeSchedule(
  deps: SchedulerDeps,
  concurrency: number,
  guardFor: (monitor: EdgeMonitor) => TargetGuard,
  takeover: { overdueMs: number },
): ProbeSchedule<EdgeMonitor> {
  const metrics = deps.metrics;
  return createProbeSchedule<EdgeMonitor>({
    logger: deps.logger,
    concurrency,
    guardFor,
    freeSlotAfterProbe: true,
    now: () => deps.clock.now(),
    systemClock: deps.clock === systemClock,
    ...(deps.owns
      ? {
          firstDueFor: (monitor: EdgeMonitor, now: number, immediate: boolean) =>
            resumeAt(monitor, now, immediate, takeover.overdueMs),
        }
      : {}),
    ...(deps.probeFor ? { probeFor: deps.probeFor } : {}),
    ...(deps.random ? { random: deps.random } : {}),
    onResult: async (monitor, result, checkedAt) => {
      await deps.ingest.record({ ...result, monitorId: monitor.id, checkedAt, source: 'edge' });
    },
    ...(metrics
      ? {
          observe: (monitor: EdgeMonitor, result: ProbeResult, durationMs: number, latenessMs: number) =>
            metrics.checkRan(monitor.type, checkOutcome(result), durationMs, latenessMs),
        }
      : {}),
  });
}
