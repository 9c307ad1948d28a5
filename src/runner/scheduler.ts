// The edge runner: runs every enabled edge monitor every intervalSec, spread evenly, under a global concurrency cap.
import { setMaxListeners } from 'node:events';
import type { Bus } from '../bus/bus.js';
import type { Clock } from '../domain/clock.js';
import type { Logger } from '../logger.js';
import type { ProbeDefinition } from '../probes/probe.js';
import { probeDefinition } from '../probes/registry.js';
import { runProbe } from '../probes/run.js';
import type { Db } from '../store/connect.js';
import { listAllMonitors, type Monitor } from '../store/monitors.js';
import type { Ingest } from './ingest.js';

/** Probes running at once across all monitors; more wait their turn (and show up as lateness). */
export const DEFAULT_CONCURRENCY = 256;
/** Monitors are re-read this often even without a change event (changes made by another process). */
const RELOAD_EVERY_MS = 60_000;
/** Up to this share of an interval is added at random to each first run, so restarts don't align every monitor. */
const JITTER_SHARE = 0.1;
const LATENESS_SAMPLES = 100_000;

export interface SchedulerStats {
  monitors: number;
  runs: number;
  running: number;
  waiting: number;
  /** Milliseconds between when a run was due and when its probe started, recent runs. */
  lateness: number[];
}

export interface Scheduler {
  start(): Promise<void>;
  reload(): Promise<void>;
  stats(): SchedulerStats;
  /** Stops scheduling, aborts running probes and waits for their results to be recorded. */
  stop(): Promise<void>;
}

export interface SchedulerDeps {
  db: Db;
  ingest: Ingest;
  bus: Bus;
  clock: Clock;
  logger: Logger;
  concurrency?: number;
  /** Tests substitute probes; the registry by default. */
  probeFor?: (monitor: Monitor) => ProbeDefinition;
  random?: () => number;
}

interface Entry {
  monitor: Monitor;
  timer: NodeJS.Timeout | null;
  dueAt: number;
  running: Promise<void> | null;
}

export function createScheduler(deps: SchedulerDeps): Scheduler {
  const concurrency = deps.concurrency ?? DEFAULT_CONCURRENCY;
  const probeFor = deps.probeFor ?? ((m: Monitor) => probeDefinition(m.type));
  const random = deps.random ?? Math.random;
  const entries = new Map<string, Entry>();
  const shutdown = new AbortController();
  // Every running probe listens to the shutdown signal; hundreds at once is expected, not a leak.
  setMaxListeners(0, shutdown.signal);
  const waiting: (() => void)[] = [];
  const lateness: number[] = [];
  let active = 0;
  let runs = 0;
  let stopped = false;
  let reloadTimer: NodeJS.Timeout | null = null;
  let unsubscribe: (() => void) | null = null;
  let pendingReload: NodeJS.Timeout | null = null;

  async function acquire(): Promise<void> {
    if (active < concurrency) {
      active++;
      return;
    }
    await new Promise<void>((resolve) => waiting.push(resolve));
  }

  function release(): void {
    const next = waiting.shift();
    if (next) next();
    else active--;
  }

  function arm(entry: Entry): void {
    if (stopped) return;
    const delay = Math.max(0, entry.dueAt - deps.clock.now());
    entry.timer = setTimeout(() => {
      entry.timer = null;
      entry.running = run(entry).finally(() => {
        entry.running = null;
      });
    }, delay);
  }

  async function run(entry: Entry): Promise<void> {
    const due = entry.dueAt;
    await acquire();
    const monitor = entry.monitor;
    try {
      if (stopped || entries.get(monitor.id) !== entry) return;
      const started = deps.clock.now();
      lateness.push(started - due);
      if (lateness.length > LATENESS_SAMPLES) lateness.splice(0, lateness.length - LATENESS_SAMPLES);
      runs++;
      const result = await runProbe(probeFor(monitor), monitor.config, { timeoutMs: monitor.timeoutMs, signal: shutdown.signal });
      // A probe cut short by shutdown says nothing about the server: don't record it as a failure.
      if (shutdown.signal.aborted) return;
      await deps.ingest.record({ ...result, monitorId: monitor.id, checkedAt: started, source: 'edge' });
    } catch (error) {
      // A probe never throws; this is the store failing. The next run tries again.
      deps.logger.error({ err: error, monitor: monitor.key }, 'edge check could not be recorded');
    } finally {
      release();
    }
    if (entries.get(monitor.id) !== entry) return;
    // Fixed cadence from when the run was due, so runs don't drift; a run that overran starts the next at once.
    entry.dueAt = Math.max(due + entry.monitor.intervalSec * 1000, deps.clock.now());
    arm(entry);
  }

  /** Spreads first runs over the interval by monitor id, plus a little jitter, so a thousand monitors don't fire together. */
  function firstDue(monitor: Monitor): number {
    const intervalMs = monitor.intervalSec * 1000;
    let hash = 2166136261;
    for (let i = 0; i < monitor.id.length; i++) hash = Math.imul(hash ^ monitor.id.charCodeAt(i), 16777619) >>> 0;
    const offset = (hash / 2 ** 32) * intervalMs * (1 - JITTER_SHARE) + random() * intervalMs * JITTER_SHARE;
    return deps.clock.now() + Math.floor(offset);
  }

  async function reload(): Promise<void> {
    if (stopped) return;
    const wanted = (await listAllMonitors(deps.db)).filter((m) => m.enabled && m.runOn === 'edge');
    const seen = new Set<string>();
    for (const monitor of wanted) {
      seen.add(monitor.id);
      const entry = entries.get(monitor.id);
      if (!entry) {
        const created: Entry = { monitor, timer: null, dueAt: firstDue(monitor), running: null };
        entries.set(monitor.id, created);
        arm(created);
        continue;
      }
      const intervalChanged = entry.monitor.intervalSec !== monitor.intervalSec;
      entry.monitor = monitor;
      if (intervalChanged && entry.timer) {
        clearTimeout(entry.timer);
        entry.dueAt = Math.min(entry.dueAt, deps.clock.now() + monitor.intervalSec * 1000);
        arm(entry);
      }
    }
    for (const [id, entry] of entries)
      if (!seen.has(id)) {
        if (entry.timer) clearTimeout(entry.timer);
        entries.delete(id);
      }
  }

  function reloadSoon(): void {
    if (pendingReload || stopped) return;
    pendingReload = setTimeout(() => {
      pendingReload = null;
      reload().catch((error) => deps.logger.error({ err: error }, 'reloading monitors failed'));
    }, 50);
  }

  return {
    async start() {
      await reload();
      unsubscribe = deps.bus.subscribe('monitors.changed', reloadSoon);
      reloadTimer = setInterval(reloadSoon, RELOAD_EVERY_MS);
      reloadTimer.unref();
      deps.logger.info({ monitors: entries.size, concurrency }, 'edge runner started');
    },
    reload,
    stats: () => ({ monitors: entries.size, runs, running: active, waiting: waiting.length, lateness: [...lateness] }),
    async stop() {
      stopped = true;
      unsubscribe?.();
      if (reloadTimer) clearInterval(reloadTimer);
      if (pendingReload) clearTimeout(pendingReload);
      for (const entry of entries.values()) if (entry.timer) clearTimeout(entry.timer);
      shutdown.abort(new Error('shutting down'));
      for (const resolve of waiting.splice(0)) resolve();
      await Promise.all([...entries.values()].map((e) => e.running));
      entries.clear();
    },
  };
}
