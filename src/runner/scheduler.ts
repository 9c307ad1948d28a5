// The edge runner: every enabled edge monitor of the store on the shared probe schedule, each result through ingest.
import type { Bus } from '../bus/bus.js';
import type { Clock } from '../domain/clock.js';
import type { Logger } from '../logger.js';
import type { ProbeDefinition } from '../probes/probe.js';
import type { Db } from '../store/connect.js';
import type { Ingest } from './ingest.js';
import { createProbeSchedule, type ScheduledMonitor, type ScheduleStats } from './probe-schedule.js';

/** Probes running at once across all monitors; more wait their turn (and show up as lateness). */
export const DEFAULT_CONCURRENCY = 256;
/** Monitors are re-read this often even without a change event (changes made by another process). */
const RELOAD_EVERY_MS = 60_000;

export type SchedulerStats = ScheduleStats;

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
  probeFor?: (monitor: ScheduledMonitor) => ProbeDefinition;
  random?: () => number;
}

export function createScheduler(deps: SchedulerDeps): Scheduler {
  const concurrency = deps.concurrency ?? DEFAULT_CONCURRENCY;
  const schedule = createProbeSchedule<ScheduledMonitor>({
    logger: deps.logger,
    concurrency,
    now: () => deps.clock.now(),
    ...(deps.probeFor ? { probeFor: deps.probeFor } : {}),
    ...(deps.random ? { random: deps.random } : {}),
    onResult: async (monitor, result, checkedAt) => {
      await deps.ingest.record({ ...result, monitorId: monitor.id, checkedAt, source: 'edge' });
    },
  });
  let stopped = false;
  let reloadTimer: NodeJS.Timeout | null = null;
  let pendingReload: NodeJS.Timeout | null = null;
  let unsubscribe: (() => void) | null = null;

  /** The monitors last loaded, by id, with the version they were read at. */
  let known = new Map<string, { updatedAt: number; monitor: ScheduledMonitor }>();

  /**
   * Reads only what scheduling needs, and keeps the object of every monitor that did not change: with thousands of
   * monitors re-read every minute, fresh copies would be garbage the heap carries until its next major collection.
   */
  async function reload(): Promise<void> {
    if (stopped) return;
    const rows = await deps.db
      .selectFrom('monitors')
      .select(['id', 'key', 'type', 'config', 'interval_sec', 'timeout_ms', 'updated_at'])
      .where('enabled', '=', 1)
      .where('run_on', '=', 'edge')
      .execute();
    const next = new Map<string, { updatedAt: number; monitor: ScheduledMonitor }>();
    for (const row of rows) {
      const previous = known.get(row.id);
      next.set(
        row.id,
        previous && previous.updatedAt === row.updated_at
          ? previous
          : {
              updatedAt: row.updated_at,
              monitor: {
                id: row.id,
                key: row.key,
                type: row.type,
                config: JSON.parse(row.config),
                intervalSec: row.interval_sec,
                timeoutMs: row.timeout_ms,
              },
            },
      );
    }
    known = next;
    schedule.update([...next.values()].map((entry) => entry.monitor));
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
      deps.logger.info({ monitors: schedule.size(), concurrency }, 'edge runner started');
    },
    reload,
    stats: () => schedule.stats(),
    async stop() {
      stopped = true;
      unsubscribe?.();
      if (reloadTimer) clearInterval(reloadTimer);
      if (pendingReload) clearTimeout(pendingReload);
      await schedule.stop();
    },
  };
}
