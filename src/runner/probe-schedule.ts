// Runs a set of monitors every intervalSec with the probe modules, spread evenly, under a concurrency cap: the core of the
// edge runner and of the relay agent.
import { setMaxListeners } from 'node:events';
import type { ScheduledMonitor } from '../domain/monitor.js';
import type { MonitorType } from '../domain/monitor-type.js';
import { type Logger, logFailure } from '../logger.js';
import type { TargetGuard } from '../net/target-guard.js';
import type { ProbeDefinition, ProbeResult } from '../probes/probe.js';
import { probeRegistry } from '../probes/registry.js';
import { runProbe } from '../probes/run.js';
import { createSlots, LatenessRing } from './probe-slots.js';

/** Up to this share of an interval is added at random to each first run, so restarts don't align every monitor. */
const JITTER_SHARE = 0.1;
const LATENESS_SAMPLES = 100_000;
/**
 * A long update (a reload of tens of thousands of monitors, a cluster's shards handed over) gives the event loop a turn
 * every this many monitors, so the checks due meanwhile start on time instead of after it.
 */
export const YIELD_EVERY = 2_000;

/**
 * Counts a long loop's steps: once every `every` of them, a promise that resolves after a turn of the event loop;
 * otherwise nothing, so a short loop runs without an await.
 */
export function yieldingEvery(every: number): () => Promise<void> | undefined {
  let steps = 0;
  return () => {
    steps += 1;
    if (steps % every !== 0) return undefined;
    return new Promise((resolve) => setImmediate(resolve));
  };
}

export type { ScheduledMonitor };

export interface ScheduleStats {
  monitors: number;
  runs: number;
  running: number;
  waiting: number;
  /** Milliseconds between when a run was due and when its probe started, recent runs. */
  lateness: number[];
}

export interface ProbeSchedule<M extends ScheduledMonitor = ScheduledMonitor> {
  /**
   * Applies a new monitor list: new ones start, removed ones stop, changed ones use their new settings from their next
   * run. Resolves once the runs in flight of the removed ones are over (their results recorded). A monitor `immediate`
   * says yes to runs at once rather than at its spread first run, when it is new to the schedule (unless firstDueFor
   * places it) or its check changed: a list read at start spreads, a monitor created, resumed or edited afterwards is
   * checked now.
   */
  update(monitors: M[], options?: { immediate?: (monitor: M) => boolean }): Promise<void>;
  size(): number;
  stats(): ScheduleStats;
  /** Lateness of the runs started since run number `since` (as counted by stats().runs), at most the latest samples kept. */
  latenessSince(since: number): number[];
  /** Stops scheduling, aborts running probes (their results are not recorded) and waits for them. */
  stop(): Promise<void>;
}

export interface ProbeScheduleDeps<M extends ScheduledMonitor> {
  logger: Logger;
  concurrency: number;
  /** Receives each result with the time its check started. */
  onResult: (monitor: M, result: ProbeResult, checkedAt: number) => Promise<void>;
  /** Told of each check run (not one cut short by stop): how long it took and how late it started, in ms (the metrics). */
  observe?: (monitor: M, result: ProbeResult, durationMs: number, latenessMs: number) => void;
  /** What a monitor's probe may connect to: its organization's policy on the edge, anything on a relay. */
  guardFor: (monitor: M) => TargetGuard;
  /** The registry by default; undefined for a type this build does not know. */
  probeFor?: (monitor: M) => ProbeDefinition | undefined;
  /** A result recorded instead of probing, when the monitor cannot be probed as it is (a relay's withheld secrets). */
  unprobeable?: (monitor: M) => ProbeResult | undefined;
  /**
   * When a monitor new to the schedule is first due; undefined (or no function) spreads first runs over the interval.
   * The edge runner of a cluster resumes a monitor handed over from another instance where that one left it. With
   * `cadence` (a time on the cadence the monitor ran on, its last check), a first run pulled forward or held back from
   * that cadence (an overdue monitor caught up at once) is followed by a run back on it, not one interval later: a
   * failover's catch-up packs a dead process's overdue monitors into a few seconds, and a fixed cadence from there
   * would pack them so every interval after, as a burst its new holder runs late each time.
   */
  firstDueFor?: (monitor: M, now: number, immediate: boolean) => FirstDue | undefined;
  now?: () => number;
  /**
   * Whether `now` is the system's clock (true when no `now` is given): lateness is then measured on performance.now()'s
   * monotonic clock, to a fraction of a millisecond; with a test's clock, on that clock.
   */
  systemClock?: boolean;
  random?: () => number;
  /**
   * Free a run's probe slot as soon as its probe is over rather than once onResult resolves. The edge runner sets it:
   * its onResult waits for a database commit, which must not hold up the probes due meanwhile. The relay agent keeps
   * the slot until its result is queued on disk (a local write), which its delivery accounting relies on.
   */
  freeSlotAfterProbe?: boolean;
}

/** A first run's time, and the cadence to go back to after it (see firstDueFor). */
export interface FirstDue {
  at: number;
  cadence?: number;
}

/** The first time on the cadence through `cadence` (every `intervalMs`) at or after `from`. */
export function onCadence(cadence: number, intervalMs: number, from: number): number {
  return cadence + Math.ceil((from - cadence) / intervalMs) * intervalMs;
}

interface Entry<M> {
  monitor: M;
  timer: NodeJS.Timeout | null;
  dueAt: number;
  /** When its timer was armed to fire, on performance.now()'s monotonic clock: lateness to a fraction of a ms. */
  firesAt: number;
  /** A cadence the next run goes back to (its first run was off it); null once on it. */
  cadence: number | null;
  running: Promise<void> | null;
  /** Changed while its run was in flight: the next run starts as soon as that one is over. */
  rerun: boolean;
}

/** Whether a monitor's check differs between two versions (a new name alone is not a new check). */
function checkChanged(before: ScheduledMonitor, after: ScheduledMonitor): boolean {
  return (
    before.type !== after.type ||
    before.intervalSec !== after.intervalSec ||
    before.timeoutMs !== after.timeoutMs ||
    JSON.stringify(before.config) !== JSON.stringify(after.config)
  );
}

export function createProbeSchedule<M extends ScheduledMonitor>(deps: ProbeScheduleDeps<M>): ProbeSchedule<M> {
  const probeFor = deps.probeFor ?? ((m: M) => knownProbe(m.type));
  const now = deps.now ?? Date.now;
  const monotonic = deps.systemClock ?? deps.now === undefined;
  const random = deps.random ?? Math.random;
  const entries = new Map<string, Entry<M>>();
  const shutdown = new AbortController();
  // Every running probe listens to the shutdown signal; hundreds at once is expected, not a leak.
  setMaxListeners(0, shutdown.signal);
  const slots = createSlots(deps.concurrency);
  const lateness = new LatenessRing(LATENESS_SAMPLES);
  let stopped = false;

  function arm(entry: Entry<M>): void {
    if (stopped) return;
    const untilDue = entry.dueAt - now();
    // An overdue run's lateness counts from when it was due, as on the wall clock.
    entry.firesAt = performance.now() + untilDue;
    const delay = Math.max(0, untilDue);
    entry.timer = setTimeout(() => {
      entry.timer = null;
      entry.running = run(entry).finally(() => {
        entry.running = null;
      });
    }, delay);
  }

  async function run(entry: Entry<M>): Promise<void> {
    const due = entry.dueAt;
    await slots.acquire();
    // With freeSlotAfterProbe a slot caps the probes running at once, not the results waiting for their commit: it is
    // freed once the probe is over, so a slow database does not hold up the checks due meanwhile (each monitor still
    // runs one at a time, its next run armed once its result is recorded).
    let holding = true;
    const free = () => {
      if (holding) slots.release();
      holding = false;
    };
    const monitor = entry.monitor;
    let checkedAt = due;
    try {
      if (stopped || entries.get(monitor.id) !== entry) return;
      checkedAt = now();
      // Whole milliseconds on the wall clock would make a p99 of 3 ms and one of 4 ms a third apart; a test's clock is
      // the only one its schedule has.
      const late = monotonic ? Math.max(0, performance.now() - entry.firesAt) : checkedAt - due;
      lateness.record(late);
      const started = deps.observe ? performance.now() : 0;
      const result: ProbeResult =
        deps.unprobeable?.(monitor) ??
        (await probeMonitor(monitor, probeFor(monitor), { signal: shutdown.signal, guard: deps.guardFor(monitor) }));
      if (deps.freeSlotAfterProbe) free();
      // A probe cut short by shutdown says nothing about the server: don't record it as a failure.
      if (shutdown.signal.aborted) return;
      deps.observe?.(monitor, result, performance.now() - started, late);
      await deps.onResult(monitor, result, checkedAt);
    } catch (error) {
      // A probe never throws; this is the store or the queue failing. The next run tries again.
      logFailure(deps.logger, error, 'a check result could not be recorded', { monitor: monitor.key });
    } finally {
      free();
    }
    if (entries.get(monitor.id) !== entry) return;
    // Fixed cadence from when the run was due, so runs don't drift; a run that overran starts the next at once. A first
    // run off the cadence it had (caught up after a handover) goes back to it: the next run is the first time on it at
    // least half an interval after this one started, so two runs are never closer than that.
    const intervalMs = entry.monitor.intervalSec * 1000;
    const next =
      entry.cadence === null ? due + intervalMs : onCadence(entry.cadence, intervalMs, checkedAt + intervalMs / 2);
    entry.cadence = null;
    entry.dueAt = entry.rerun ? now() : Math.max(next, now());
    entry.rerun = false;
    arm(entry);
  }

  /**
   * The update under way, if any. Updates apply one at a time, in call order: a long one gives the event loop turns
   * (yieldingEvery) and must not interleave with the next. One called while none runs applies at once, up to its first
   * turn.
   */
  let updating: Promise<void> | null = null;

  async function apply(monitors: M[], immediate: (monitor: M) => boolean): Promise<void> {
    if (stopped) return;
    const seen = new Set<string>();
    const turns = yieldingEvery(YIELD_EVERY);
    for (const monitor of monitors) {
      const turn = turns();
      if (turn) {
        await turn;
        if (stopped) return;
      }
      seen.add(monitor.id);
      const entry = entries.get(monitor.id);
      if (!entry) {
        const first = firstDue(monitor, immediate(monitor), now(), deps.firstDueFor, random);
        const created: Entry<M> = {
          monitor,
          timer: null,
          dueAt: first.at,
          firesAt: 0,
          cadence: first.cadence ?? null,
          running: null,
          rerun: false,
        };
        entries.set(monitor.id, created);
        arm(created);
        continue;
      }
      const intervalChanged = entry.monitor.intervalSec !== monitor.intervalSec;
      const runNow = entry.monitor !== monitor && checkChanged(entry.monitor, monitor) && immediate(monitor);
      entry.monitor = monitor;
      // A run now or a new interval starts a cadence of its own.
      if (runNow || intervalChanged) entry.cadence = null;
      if (runNow) {
        if (entry.timer) {
          clearTimeout(entry.timer);
          entry.dueAt = now();
          arm(entry);
        } else entry.rerun = true;
      } else if (intervalChanged && entry.timer) {
        clearTimeout(entry.timer);
        entry.dueAt = Math.min(entry.dueAt, now() + monitor.intervalSec * 1000);
        arm(entry);
      }
    }
    const leaving: Promise<void>[] = [];
    for (const [id, entry] of entries)
      if (!seen.has(id)) {
        if (entry.timer) clearTimeout(entry.timer);
        if (entry.running) leaving.push(entry.running);
        entries.delete(id);
      }
    await Promise.all(leaving);
  }

  return {
    update(monitors, options) {
      const immediate = options?.immediate ?? (() => false);
      const run = () => apply(monitors, immediate);
      const next = updating ? updating.catch(() => {}).then(run) : run();
      updating = next;
      const done = () => {
        if (updating === next) updating = null;
      };
      next.then(done, done);
      return next;
    },
    size: () => entries.size,
    latenessSince: (since) => lateness.since(since),
    stats: () => ({
      monitors: entries.size,
      runs: lateness.runs,
      running: slots.active(),
      waiting: slots.waiting(),
      lateness: lateness.samples(),
    }),
    async stop() {
      stopped = true;
      for (const entry of entries.values()) if (entry.timer) clearTimeout(entry.timer);
      shutdown.abort(new Error('shutting down'));
      slots.releaseAll();
      await Promise.all([...entries.values()].map((e) => e.running));
      entries.clear();
    },
  };
}

/** One check of a monitor, or a failed result when this build does not know its type. */
async function probeMonitor(
  monitor: ScheduledMonitor,
  definition: ProbeDefinition | undefined,
  { signal, guard }: { signal: AbortSignal; guard: TargetGuard },
): Promise<ProbeResult> {
  if (!definition)
    return { ok: false, error: `this build does not know the monitor type "${monitor.type}"; update it` };
  return runProbe(definition, monitor.config, { timeoutMs: monitor.timeoutMs, signal, guard });
}

/**
 * When a monitor new to the schedule first runs: where `firstDueFor` says, now when asked, else spread over the
 * interval by monitor id, plus a little jitter, so a thousand monitors don't fire together.
 */
function firstDue<M extends ScheduledMonitor>(
  monitor: M,
  immediate: boolean,
  now: number,
  firstDueFor: ProbeScheduleDeps<M>['firstDueFor'],
  random: () => number,
): FirstDue {
  const given = firstDueFor?.(monitor, now, immediate);
  if (given !== undefined) return given;
  if (immediate) return { at: now };
  const intervalMs = monitor.intervalSec * 1000;
  return {
    at: now + Math.floor(spread(monitor.id) * intervalMs * (1 - JITTER_SHARE) + random() * intervalMs * JITTER_SHARE),
  };
}

function knownProbe(type: string): ProbeDefinition | undefined {
  return Object.hasOwn(probeRegistry, type)
    ? (probeRegistry[type as MonitorType] as unknown as ProbeDefinition)
    : undefined;
}

/** Where in [0, 1) a monitor's first run falls, from its id (FNV-1a), so restarts keep the same spread. */
export function spread(id: string): number {
  let hash = 2166136261;
  for (let i = 0; i < id.length; i++) hash = Math.imul(hash ^ id.charCodeAt(i), 16777619) >>> 0;
  return hash / 2 ** 32;
}
