// While Redis is away the other processes' events do not arrive: this polls PostgreSQL for what they would have said
// about the monitors on the pages held in memory, and delivers it here, so the live streams keep updating. Caches of
// configuration need nothing of it: the change counter (runner/change-watch.ts) is polled in every mode.
import type { RedisBus } from '../bus/redis-bus.js';
import type { Clock } from '../domain/clock.js';
import { type Logger, logFailure } from '../logger.js';
import { createPeriodicSweep } from '../runner/periodic.js';
import type { PageCache } from '../services/pages/page-cache.js';
import type { MonitorActivity, Store } from '../store/index.js';

export interface ActivityPoll {
  /** One poll now; resolves with how many monitors had news. */
  poll(): Promise<number>;
  /** Polls every `everyMs` while the bus is disconnected, and once more when it is back (the gap it was away). */
  start(): void;
  stop(): Promise<void>;
}

export function createActivityPoll(deps: {
  store: Store;
  bus: RedisBus;
  pages: Pick<PageCache, 'monitorsInMemory'>;
  clock: Clock;
  logger: Logger;
  everyMs: number;
}): ActivityPoll {
  const { bus, logger } = deps;
  /** What each monitor looked like at the last poll of this outage. */
  const known = new Map<string, MonitorActivity>();

  async function pass(): Promise<number> {
    const rows = await deps.store.monitorStates.listActivity(deps.pages.monitorsInMemory());
    const now = deps.clock.now();
    let news = 0;
    for (const row of rows) {
      const before = known.get(row.id);
      known.set(row.id, row);
      // Unknown before (the first poll of an outage): delivered all the same, it covers the time until this poll.
      if (
        before &&
        before.lastCheckAt === row.lastCheckAt &&
        before.lastResult === row.lastResult &&
        before.state === row.state
      )
        continue;
      news++;
      const base = { at: now, monitorId: row.id, organizationId: row.organizationId };
      if (before && before.state !== row.state)
        bus.deliverLocally({ type: 'monitor.state', ...base, previous: before.state, state: row.state, reason: null });
      bus.deliverLocally({ type: 'monitor.checked', ...base, ok: okOf(row.lastResult) });
    }
    return news;
  }

  const sweep = createPeriodicSweep(pass, {
    everyMs: deps.everyMs,
    logger,
    failure: 'polling monitor activity without redis failed',
    gate: () => !bus.connected(),
  });
  let unsubscribe: (() => void) | null = null;
  let outage = false;

  function changed(connected: boolean): void {
    if (!connected && !outage) {
      outage = true;
      logger.warn(
        { pollMs: deps.everyMs },
        'redis unreachable: events from other processes are polled from PostgreSQL until it is back',
      );
      sweep.sweep().catch((error) => logFailure(logger, error, 'polling monitor activity without redis failed'));
    } else if (connected && outage) {
      outage = false;
      // Subscribed again: one more poll covers what was published while the subscription was down (after the pass
      // under way, if any: it may have read before the subscription was back).
      sweep
        .sweep()
        .then(() => sweep.sweep())
        .then((news) =>
          logger.info({ caughtUp: news }, 'redis reachable again: events from other processes arrive at once'),
        )
        .catch((error) => logFailure(logger, error, 'polling monitor activity without redis failed'))
        .finally(() => {
          if (!outage) known.clear();
        });
    }
  }

  return {
    poll: () => sweep.sweep(),
    start() {
      if (unsubscribe) return;
      unsubscribe = bus.onConnectionChange(changed);
      sweep.start();
      if (!bus.connected()) changed(false);
    },
    async stop() {
      unsubscribe?.();
      unsubscribe = null;
      await sweep.stop();
    },
  };
}

/** Whether the stored latest result was a success; false when unreadable or absent. */
function okOf(lastResult: string | null): boolean {
  if (lastResult === null) return false;
  try {
    return (JSON.parse(lastResult) as { ok?: unknown }).ok === true;
  } catch {
    return false;
  }
}
