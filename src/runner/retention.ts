// Prunes raw checks past their retention (30 days by default) and buckets past theirs (400 days), in small batches.

import { DAY_MS } from '../domain/check.js';
import type { Clock } from '../domain/clock.js';
import type { Logger } from '../logger.js';
import type { Store } from '../store/index.js';

export const RETENTION_DEFAULTS = { checkDays: 30, bucketDays: 400 } as const;
const PRUNE_EVERY_MS = 60 * 60 * 1000;
const FIRST_PRUNE_AFTER_MS = 60 * 1000;
/** Rows deleted per statement: short transactions leave room for writers between batches. */
export const PRUNE_BATCH = 5000;

export interface Retention {
  prune(): Promise<{ checks: number; buckets: number }>;
  start(): void;
  stop(): Promise<void>;
}

export function createRetention(deps: { store: Store; clock: Clock; logger: Logger; checkDays: number; bucketDays: number }): Retention {
  let timer: NodeJS.Timeout | null = null;
  let running: Promise<{ checks: number; buckets: number }> | null = null;
  let stopped = false;

  async function prune(): Promise<{ checks: number; buckets: number }> {
    const now = deps.clock.now();
    let checks = 0;
    let buckets = 0;
    for (const id of await deps.store.monitors.listIds()) {
      for (;;) {
        if (stopped) break;
        const deleted = await deps.store.checks.prune(id, now - deps.checkDays * DAY_MS, PRUNE_BATCH);
        checks += deleted;
        if (deleted < PRUNE_BATCH) break;
        // Let writers in between batches.
        await new Promise((resolve) => setImmediate(resolve));
      }
      if (stopped) break;
      for (const period of ['hour', 'day'] as const) buckets += await deps.store.checks.pruneBuckets(period, id, now - deps.bucketDays * DAY_MS);
    }
    if (checks + buckets > 0) deps.logger.info({ checks, buckets }, 'pruned old history');
    return { checks, buckets };
  }

  function runOnce(): void {
    running ??= prune()
      .catch((error) => {
        deps.logger.error({ err: error }, 'pruning history failed');
        return { checks: 0, buckets: 0 };
      })
      .finally(() => {
        running = null;
      });
  }

  return {
    prune,
    start() {
      timer = setTimeout(function tick() {
        runOnce();
        timer = setTimeout(tick, PRUNE_EVERY_MS);
        timer.unref();
      }, FIRST_PRUNE_AFTER_MS);
      timer.unref();
    },
    async stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
      await running;
    },
  };
}
