// Tells the log when the database stops storing and when it stores again: one line each way for the whole outage (and
// a reminder a minute while it lasts), however many requests and sweeps failed meanwhile.
import type { Clock } from '../domain/clock.js';
import { STORAGE_RETRY_AFTER_SEC, type StorageFault } from '../domain/errors.js';
import type { Logger } from '../logger.js';
import type { Store } from '../store/index.js';

export const STORAGE_WATCH = {
  /** Writes must have been committed, and nothing failed, for this long before the outage is called over. */
  quietMs: 2_000,
  /** How often an outage is looked at for its end. */
  checkEveryMs: 500,
  /** A reminder while it lasts. */
  remindEveryMs: 60_000,
} as const;

/** What each fault means, for the person reading the log. */
const WHAT: Record<StorageFault, string> = {
  full: 'the database is full (its disk, or its size limit)',
  unreachable: 'the database cannot be reached or read (PostgreSQL down, restarting or cut off, or the disk failing)',
  busy: 'the database is locked by another process',
};

export interface StorageWatch {
  stop(): void;
}

interface Outage {
  fault: StorageFault;
  since: number;
  failures: number;
  lastFailureAt: number;
  /** The store's committed writes at the last failure: once they move, writes go through again. */
  writesAtLastFailure: number;
  remindedAt: number;
}

export function watchStorage(deps: { store: Store; logger: Logger; clock: Clock }): StorageWatch {
  const { store, logger, clock } = deps;
  let outage: Outage | null = null;
  let timer: NodeJS.Timeout | null = null;

  function failed(fault: StorageFault, cause: unknown): void {
    const now = clock.now();
    const writes = store.availability.committedWrites();
    if (outage) {
      outage.fault = fault;
      outage.failures++;
      outage.lastFailureAt = now;
      outage.writesAtLastFailure = writes;
      return;
    }
    outage = { fault, since: now, failures: 1, lastFailureAt: now, writesAtLastFailure: writes, remindedAt: now };
    logger.error(
      { database: store.location, fault, err: cause },
      `storage unavailable: ${WHAT[fault]}. Until it recovers nothing is stored: pushes, relay results and API writes are answered 503 with Retry-After: ${STORAGE_RETRY_AFTER_SEC} (relays keep their results and retry), and edge checks that run meanwhile are not recorded. Everything answered 200 is stored`,
    );
    timer = setInterval(check, STORAGE_WATCH.checkEveryMs);
    timer.unref();
  }

  function check(): void {
    if (!outage) return;
    const now = clock.now();
    const writing = store.availability.committedWrites() !== outage.writesAtLastFailure;
    if (writing && now - outage.lastFailureAt >= STORAGE_WATCH.quietMs) {
      logger.info(
        { database: store.location, fault: outage.fault, outageMs: now - outage.since, failures: outage.failures },
        `storage available again after ${formatSeconds(now - outage.since)}: writes go through`,
      );
      end();
    } else if (now - outage.remindedAt >= STORAGE_WATCH.remindEveryMs) {
      outage.remindedAt = now;
      logger.warn(
        { database: store.location, fault: outage.fault, outageMs: now - outage.since, failures: outage.failures },
        `storage still unavailable: ${WHAT[outage.fault]}`,
      );
    }
  }

  function end(): void {
    outage = null;
    if (timer) clearInterval(timer);
    timer = null;
  }

  const unsubscribe = store.availability.onFault(failed);
  return {
    stop() {
      unsubscribe();
      end();
    },
  };
}

function formatSeconds(ms: number): string {
  return `${(ms / 1000).toFixed(1)} s`;
}
