// Prunes raw checks and state changes past their retention (30 days by default), buckets past theirs (400 days), the notification
// delivery log past its 30 days (sent and dead ones; pending ones are never pruned) and page subscriptions left
// unconfirmed past their 48 hours, in small batches; and expired sessions and one-time account links, audit entries
// past ACCOUNT_LIMITS.auditRetentionDays, and addresses of the system SMTP server's recipients that never confirmed
// (SYSTEM_MAIL_LIMITS.forgetUnconfirmedAfterMs after they were last asked); game changes past GAME_CHANGE_LIMITS.keptDays.

import { ACCOUNT_LIMITS } from '../domain/account.js';
import { DAY_MS } from '../domain/check.js';
import type { Clock } from '../domain/clock.js';
import { GAME_CHANGE_LIMITS } from '../domain/player-alerts.js';
import { SYSTEM_MAIL_LIMITS } from '../domain/system-mail.js';
import type { AgeCutoffs, Store, TimePartitionRepository } from '../store/index.js';
import { createTimer, type TimerDeps } from './periodic.js';

export const RETENTION_DEFAULTS = { checkDays: 30, bucketDays: 400 } as const;
/** How long the notification delivery log (sent and dead deliveries, by creation) is kept. */
export const DELIVERY_RETENTION_DAYS = 30;
const PRUNE_EVERY_MS = 60 * 60 * 1000;
const FIRST_PRUNE_AFTER_MS = 60 * 1000;
/** Rows deleted per statement: short transactions leave room for writers between batches. */
export const PRUNE_BATCH = 5000;
/** Monitors whose state changes and buckets one pruning statement covers. */
const MONITORS_PER_PRUNE = 500;

export interface Pruned {
  /** PostgreSQL: day partitions of checks and month partitions of hourly buckets dropped (their rows count below). */
  partitions: number;
  checks: number;
  /** Monitors' state changes, kept as long as the raw checks. */
  stateChanges: number;
  buckets: number;
  deliveries: number;
  /** Unconfirmed page subscriptions whose confirmation link expired. */
  subscribers: number;
  /** Expired sessions (their cookies no longer sign anyone in) and expired one-time account links (setup, password reset). */
  sessions: number;
  accountTokens: number;
  /** Audit log entries older than ACCOUNT_LIMITS.auditRetentionDays. */
  audit: number;
  /** Recipients of the system SMTP server that never confirmed, last asked long ago. */
  recipients: number;
  /** Game changes (version, map, wipe) older than GAME_CHANGE_LIMITS.keptDays: a page shows a day of them. */
  gameChanges: number;
}

export interface Retention {
  prune(): Promise<Pruned>;
  start(): void;
  stop(): Promise<void>;
}

export function createRetention(
  deps: TimerDeps & {
    store: Store;
    clock: Clock;
    checkDays: number;
    bucketDays: number;
    /** DELIVERY_RETENTION_DAYS unless a test says otherwise. */
    deliveryDays?: number;
    /** Rows per delete: PRUNE_BATCH unless a test makes it small. */
    batch?: number;
  },
): Retention {
  const deliveryDays = deps.deliveryDays ?? DELIVERY_RETENTION_DAYS;
  const batch = deps.batch ?? PRUNE_BATCH;
  let stopped = false;

  async function prune(): Promise<Pruned> {
    const now = deps.clock.now();
    const cutoffs = { checks: now - deps.checkDays * DAY_MS, buckets: now - deps.bucketDays * DAY_MS };
    const parts = deps.store.timePartitions;
    // PostgreSQL: whole days of checks and months of hourly buckets are dropped, and rows deleted only from the
    // default partitions; the daily buckets (one row per monitor and day) are deleted as on SQLite, below.
    const aged = parts ? await agePartitions(parts, now, cutoffs, batch, () => stopped) : null;
    let checks = aged?.checks ?? 0;
    let buckets = aged?.buckets ?? 0;
    let stateChanges = 0;
    const ids = await deps.store.monitors.listIds();
    // SQLite: each monitor's checks, a batch at a time.
    for (const id of parts ? [] : ids) {
      for (;;) {
        if (stopped) break;
        const deleted = await deps.store.checks.prune(id, cutoffs.checks, batch);
        checks += deleted;
        if (deleted < batch) break;
        // Let writers in between batches.
        await new Promise((resolve) => setImmediate(resolve));
      }
      if (stopped) break;
    }
    // State changes and buckets (one row a monitor and hour or day): hundreds of monitors a statement, not one, which
    // at 100,000 monitors was 200,000 statements an hour.
    for (let i = 0; i < ids.length && !stopped; i += MONITORS_PER_PRUNE) {
      const chunk = ids.slice(i, i + MONITORS_PER_PRUNE);
      stateChanges += await deps.store.monitorStates.pruneChanges(chunk, cutoffs.checks);
      for (const period of parts ? (['day'] as const) : (['hour', 'day'] as const))
        buckets += await deps.store.checks.pruneBuckets(period, chunk, cutoffs.buckets);
      await new Promise((resolve) => setImmediate(resolve));
    }
    let deliveries = 0;
    while (!stopped) {
      const deleted = await deps.store.deliveries.prune(now - deliveryDays * DAY_MS, batch);
      deliveries += deleted;
      if (deleted < batch) break;
      await new Promise((resolve) => setImmediate(resolve));
    }
    let subscribers = 0;
    while (!stopped) {
      const deleted = await deps.store.subscribers.pruneExpired(now, batch);
      subscribers += deleted;
      if (deleted < batch) break;
      await new Promise((resolve) => setImmediate(resolve));
    }
    // Few rows (one per signed-in browser, one per link): one statement each.
    const sessions = stopped ? 0 : await deps.store.sessions.prune(now);
    // Account links: the operator's (setup, password) and those mailed to an address (sign-up, email change).
    const accountTokens = stopped
      ? 0
      : (await deps.store.accountTokens.prune(now)) + (await deps.store.emailLinks.prune(now));
    const audit = stopped ? 0 : await deps.store.audit.prune(now - ACCOUNT_LIMITS.auditRetentionDays * DAY_MS);
    let recipients = 0;
    while (!stopped) {
      const deleted = await deps.store.recipients.pruneUnconfirmed(
        now - SYSTEM_MAIL_LIMITS.forgetUnconfirmedAfterMs,
        batch,
      );
      recipients += deleted;
      if (deleted < batch) break;
      await new Promise((resolve) => setImmediate(resolve));
    }
    const gameChanges = stopped ? 0 : await deps.store.gameChanges.prune(now - GAME_CHANGE_LIMITS.keptDays * DAY_MS);
    const pruned = {
      ...{
        partitions: aged?.partitions ?? 0,
        checks,
        stateChanges,
        buckets,
        deliveries,
        subscribers,
        sessions,
        accountTokens,
        audit,
        recipients,
      },
      gameChanges,
    };
    if (Object.values(pruned).some((n) => n > 0)) deps.logger.info(pruned, 'pruned old history');
    return pruned;
  }

  const timer = createTimer(prune, deps, {
    everyMs: PRUNE_EVERY_MS,
    firstAfterMs: FIRST_PRUNE_AFTER_MS,
    failure: 'pruning history failed',
  });
  return {
    prune: timer.sweep,
    start: timer.start,
    async stop() {
      // Ends the batches of a pass under way early, then waits for it.
      stopped = true;
      await timer.stop();
    },
  };
}

/** Partitions this many days ahead are made on each pass (hourly), so a pass or two missed costs nothing. */
export const PARTITION_DAYS_AHEAD = 2;

/**
 * Makes the partitions of the next days, drops those wholly past retention, and deletes what the default partitions
 * hold past it (normally nothing) in batches. A step another process of the cluster is making is left to it.
 */
async function agePartitions(
  parts: TimePartitionRepository,
  now: number,
  cutoffs: AgeCutoffs,
  batch: number,
  stopped: () => boolean,
): Promise<{ partitions: number; checks: number; buckets: number }> {
  await parts.prepare(now, PARTITION_DAYS_AHEAD, cutoffs);
  const dropped = (await parts.dropBefore(cutoffs)) ?? { partitions: [], checks: 0, buckets: 0 };
  const aged = { partitions: dropped.partitions.length, checks: dropped.checks, buckets: dropped.buckets };
  while (!stopped()) {
    const pruned = await parts.pruneDefault(cutoffs, batch);
    aged.checks += pruned.checks;
    aged.buckets += pruned.buckets;
    if (pruned.checks < batch && pruned.buckets < batch) break;
    await new Promise((resolve) => setImmediate(resolve));
  }
  return aged;
}
