// The agent's runner: each assigned monitor probed every intervalSec with the server's own probe modules, under a concurrency cap.
import { randomBytes } from 'node:crypto';
import type { MonitorType } from '../domain/monitor-type.js';
import type { Logger } from '../logger.js';
import type { ProbeDefinition } from '../probes/probe.js';
import { probeRegistry } from '../probes/registry.js';
import { runProbe } from '../probes/run.js';
import type { RelayMonitor, RelayResult } from './wire.js';

export const DEFAULT_RELAY_CONCURRENCY = 64;
/** Up to this share of an interval is added at random to each first run, so restarts don't align every monitor. */
const JITTER_SHARE = 0.1;

export interface ProbeSchedule {
  /** Applies a new monitor list: new ones start, removed ones stop, changed ones use their new settings from their next run. */
  update(monitors: RelayMonitor[]): void;
  size(): number;
  /** Stops scheduling, aborts running probes (their results are not recorded) and waits for them. */
  stop(): Promise<void>;
}

export interface ProbeScheduleDeps {
  logger: Logger;
  /** Receives each result, with its id and the time the check started. */
  onResult: (result: RelayResult) => Promise<void>;
  concurrency?: number;
  probeFor?: (type: string) => ProbeDefinition | undefined;
  random?: () => number;
}

interface Entry {
  monitor: RelayMonitor;
  timer: NodeJS.Timeout | null;
  dueAt: number;
  running: Promise<void> | null;
}

export function createProbeSchedule(deps: ProbeScheduleDeps): ProbeSchedule {
  const concurrency = deps.concurrency ?? DEFAULT_RELAY_CONCURRENCY;
  const probeFor = deps.probeFor ?? knownProbe;
  const random = deps.random ?? Math.random;
  const entries = new Map<string, Entry>();
  const shutdown = new AbortController();
  const waiting: (() => void)[] = [];
  let active = 0;
  let stopped = false;

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
    entry.timer = setTimeout(() => {
      entry.timer = null;
      entry.running = run(entry).finally(() => {
        entry.running = null;
      });
    }, Math.max(0, entry.dueAt - Date.now()));
  }

  async function run(entry: Entry): Promise<void> {
    const due = entry.dueAt;
    await acquire();
    const monitor = entry.monitor;
    try {
      if (stopped || entries.get(monitor.id) !== entry) return;
      const checkedAt = Date.now();
      const definition = probeFor(monitor.type);
      const result = definition
        ? await runProbe(definition, monitor.config, { timeoutMs: monitor.timeoutMs, signal: shutdown.signal })
        : { ok: false, error: `this relay agent does not know the monitor type "${monitor.type}"; update it` };
      // A probe cut short by shutdown says nothing about the server: don't record it as a failure.
      if (shutdown.signal.aborted) return;
      await deps.onResult({ id: newResultId(), monitorId: monitor.id, checkedAt, ...result });
    } catch (error) {
      deps.logger.error({ err: error, monitor: monitor.key }, 'a check result could not be queued');
    } finally {
      release();
    }
    if (entries.get(monitor.id) !== entry) return;
    // Fixed cadence from when the run was due, so runs don't drift; a run that overran starts the next at once.
    entry.dueAt = Math.max(due + entry.monitor.intervalSec * 1000, Date.now());
    arm(entry);
  }

  /** Spreads first runs over the interval by monitor id, plus a little jitter. */
  function firstDue(monitor: RelayMonitor): number {
    const intervalMs = monitor.intervalSec * 1000;
    let hash = 2166136261;
    for (let i = 0; i < monitor.id.length; i++) hash = Math.imul(hash ^ monitor.id.charCodeAt(i), 16777619) >>> 0;
    return Date.now() + Math.floor((hash / 2 ** 32) * intervalMs * (1 - JITTER_SHARE) + random() * intervalMs * JITTER_SHARE);
  }

  return {
    update(monitors) {
      if (stopped) return;
      const seen = new Set<string>();
      for (const monitor of monitors) {
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
          entry.dueAt = Math.min(entry.dueAt, Date.now() + monitor.intervalSec * 1000);
          arm(entry);
        }
      }
      for (const [id, entry] of entries)
        if (!seen.has(id)) {
          if (entry.timer) clearTimeout(entry.timer);
          entries.delete(id);
        }
    },
    size: () => entries.size,
    async stop() {
      stopped = true;
      for (const entry of entries.values()) if (entry.timer) clearTimeout(entry.timer);
      shutdown.abort(new Error('shutting down'));
      for (const resolve of waiting.splice(0)) resolve();
      await Promise.all([...entries.values()].map((e) => e.running));
      entries.clear();
    },
  };
}

/** 96 random bits: unique per monitor for as long as the server keeps checks. */
export function newResultId(): string {
  return randomBytes(12).toString('base64url');
}

function knownProbe(type: string): ProbeDefinition | undefined {
  return Object.hasOwn(probeRegistry, type) ? (probeRegistry[type as MonitorType] as unknown as ProbeDefinition) : undefined;
}
