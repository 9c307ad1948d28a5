// The one path every result takes (edge runner, relays, heartbeats): store the check and its buckets, derive the state, publish events.
import { setTimeout as sleep } from 'node:timers/promises';
import type { Bus } from '../bus/bus.js';
import type { Clock } from '../domain/clock.js';
import { OverloadedError } from '../domain/errors.js';
import type { CheckSource, MonitorState } from '../domain/monitor-type.js';
import { type Logger, logFailure } from '../logger.js';
import type { WardenMetrics } from '../metrics/recorder.js';
import { createTlsNotices, type TlsNotices } from '../notify/outbox/certificates.js';
import type { NotificationOutbox } from '../notify/outbox/outbox.js';
import type { Store } from '../store/index.js';
import { commit } from './ingest-commit.js';

export interface IngestInput {
  monitorId: string;
  ok: boolean;
  latencyMs?: number | null | undefined;
  message?: string | null | undefined;
  error?: string | null | undefined;
  data?: Record<string, unknown> | null | undefined;
  degraded?: boolean | undefined;
  /** When the check ran; defaults to now. Relays deliver late results with their original time. */
  checkedAt?: number | undefined;
  /** Set by relays so a replayed result is stored once. */
  resultId?: string | undefined;
  source: CheckSource;
  /** Where it was checked, for a monitor with several locations: a relay's id (the edge's results need not say). */
  location?: string | undefined;
  /** How alerts name that location: the relay's key. */
  locationLabel?: string | undefined;
  kind?: 'result';
}

/**
 * No result came when one was due (the watchdog's finding): the monitor becomes unknown, unless a result arrived
 * since the watchdog looked (its last check is no longer `lastCheckAt`). Nothing is added to its history.
 */
export interface IngestSilence {
  kind: 'silence';
  monitorId: string;
  lastCheckAt: number | null;
  reason: string;
}

export type IngestOutcome =
  | { stored: true; monitorId: string; state: MonitorState; checkedAt: number }
  | { stored: false; monitorId: string; reason: 'duplicate' | 'unknown monitor' | 'superseded' };

export interface Ingest {
  /** Resolves once the result is committed to the database (or was already there). */
  record(input: IngestInput | IngestSilence): Promise<IngestOutcome>;
  recordMany(inputs: (IngestInput | IngestSilence)[]): Promise<IngestOutcome[]>;
  /** Waits for everything queued so far to be committed. */
  flush(): Promise<void>;
  close(): Promise<void>;
}

/** Seconds a client is asked to wait when the ingest queue is full. */
export const INGEST_RETRY_AFTER_SEC = 1;

export class IngestOverloadedError extends OverloadedError {
  constructor() {
    super('Too many results are waiting to be stored; retry shortly.', INGEST_RETRY_AFTER_SEC);
  }
}

/** Results committed per transaction; more wait for the next one. */
export const INGEST_MAX_BATCH = 2000;
/** How long an edge result may wait for others to share its transaction. */
export const EDGE_LINGER_MS = 100;
/**
 * On PostgreSQL, a commit that carried several results and left fewer than COMMIT_LINGER_FILL waiting lets the next one
 * wait this long for more: the clients just answered send their next results within it. Each commit costs a round trip,
 * a statement and a WAL flush in PostgreSQL whatever its size, and three processes sharing a load each see a third of
 * it: lingering took their batches from about 7 results to 9.4, and their heartbeats per second from 3,500–4,200 to
 * 5,300 (docs/storage.md). A lone client (batches of one) never waits. Without a linger, the next commit starts before
 * the last one's callers are answered (their answers and events follow in the next turn): PostgreSQL then works while
 * Warden answers instead of idling. Relay results (batches of 500, always more waiting), cluster bench, 0.74–0.89 of
 * SQLite's rate with it against 0.69–0.94 without (medians 0.85 and 0.78, docs/scale.md): a small gain on two busy
 * cores, within their noise. Each caller is still answered only after its own commit.
 */
export const COMMIT_LINGER_MS = 1;
export const COMMIT_LINGER_FILL = 32;
/** Results waiting at most; beyond it record() fails fast instead of queueing without bound. */
export const INGEST_MAX_QUEUE = 100_000;
/** A full queue is told in the log at most this often (its refusals are answered 503, not logged one by one). */
const OVERLOAD_LOG_EVERY_MS = 60_000;

interface Pending {
  input: IngestInput | IngestSilence;
  resolve: (outcome: IngestOutcome) => void;
  reject: (error: unknown) => void;
}

/**
 * Group commit: results recorded in the same tick, or while a transaction is running, are committed
 * together in the next transaction. Each caller's promise resolves only after its commit, so a 200
 * always means "durably stored", yet thousands of results share one fsync.
 */
export interface IngestDeps {
  store: Store;
  bus: Bus;
  clock: Clock;
  logger: Logger;
  outbox?: NotificationOutbox | undefined;
  metrics?: WardenMetrics | undefined;
}

export function createIngest(deps: IngestDeps): Ingest {
  let queue: Pending[] = [];
  deps.metrics?.watchIngestQueue(() => queue.length);
  /** True while the drain loop runs; cleared in the same tick the loop sees an empty queue, so nothing is stranded. */
  let draining = false;
  let idle: Promise<void> = Promise.resolve();
  let scheduled = false;
  let closed = false;

  let lingering: NodeJS.Timeout | null = null;
  /** Certificate notices ride on the same commits (their memo is this process's). */
  const tls = deps.outbox ? createTlsNotices(deps.outbox) : undefined;

  /**
   * Someone waits on a push or relay result (its 200 comes after the commit): commit on the next turn. Nobody waits
   * on an edge result, so it lingers up to EDGE_LINGER_MS to share a transaction with others: a few large commits
   * instead of hundreds of tiny ones (less I/O, and far less garbage for the heap to carry).
   */
  function schedule(waited: boolean): void {
    if (draining) return;
    if (!waited) {
      lingering ??= setTimeout(() => {
        lingering = null;
        schedule(true);
      }, EDGE_LINGER_MS);
      return;
    }
    if (scheduled) return;
    scheduled = true;
    setImmediate(() => {
      scheduled = false;
      if (lingering) {
        clearTimeout(lingering);
        lingering = null;
      }
      startDrain();
    });
  }

  function startDrain(): void {
    if (draining) return;
    draining = true;
    idle = drain();
  }

  /** PostgreSQL: commits linger (COMMIT_LINGER_MS), and run while the last one's callers are answered. */
  const overlaps = deps.store.dialect === 'postgres';
  async function drain(): Promise<void> {
    /** Answers the callers of the last commit and publishes its events; run once the next one has started. */
    let answer: (() => void) | undefined;
    const answerNow = () => {
      answer?.();
      answer = undefined;
    };
    try {
      let last = 0;
      while (queue.length > 0) {
        if (overlaps && last > 1 && queue.length < COMMIT_LINGER_FILL) {
          // Lingering is for the clients just answered: they are answered first, to send their next results within it.
          answerNow();
          await sleep(COMMIT_LINGER_MS);
        }
        const batch = queue.slice(0, INGEST_MAX_BATCH);
        last = batch.length;
        queue = queue.slice(batch.length);
        const committing = commitBatch(deps, batch, tls);
        // The next commit is under way before the last one's callers are answered (on the next turn): PostgreSQL
        // works on it meanwhile instead of waiting for Warden's answers.
        if (answer) setImmediate(answer);
        answer = await committing;
        if (!overlaps) answerNow();
      }
    } finally {
      draining = false;
      answerNow();
    }
  }

  let overloadLoggedAt = Number.NEGATIVE_INFINITY;
  function overloaded(): Promise<never> {
    const now = deps.clock.now();
    if (now - overloadLoggedAt >= OVERLOAD_LOG_EVERY_MS) {
      overloadLoggedAt = now;
      deps.logger.warn(
        { waiting: queue.length },
        `too many results are waiting to be stored: new ones are answered 503 with Retry-After: ${INGEST_RETRY_AFTER_SEC} until the queue drains`,
      );
    }
    return Promise.reject(new IngestOverloadedError());
  }

  function enqueue(input: IngestInput | IngestSilence): Promise<IngestOutcome> {
    if (closed) return Promise.reject(new Error('ingest is closed'));
    if (queue.length >= INGEST_MAX_QUEUE) return overloaded();
    return new Promise((resolve, reject) => {
      queue.push({ input, resolve, reject });
      if (draining) return; // the running loop takes it in its next transaction
      if (queue.length >= INGEST_MAX_BATCH) startDrain();
      else schedule(input.kind === 'silence' || input.source !== 'edge');
    });
  }

  async function settle(): Promise<void> {
    if (lingering) {
      clearTimeout(lingering);
      lingering = null;
    }
    while (queue.length > 0 || draining) {
      if (!draining) startDrain();
      await idle;
    }
  }

  return {
    record: enqueue,
    recordMany: (inputs) => Promise.all(inputs.map(enqueue)),
    flush: settle,
    async close() {
      closed = true;
      await settle();
    },
  };
}

/**
 * One transaction for a batch. What it returns settles each caller's promise (resolved with its outcome), then
 * publishes the events and tells the dispatcher of what was enqueued; a failure rejects the callers at once.
 */
async function commitBatch(deps: IngestDeps, batch: Pending[], tls: TlsNotices | undefined): Promise<() => void> {
  try {
    const started = deps.metrics ? performance.now() : 0;
    const { outcomes, events, enqueued } = await commit(
      deps.store,
      batch.map((p) => p.input),
      deps.clock.now(),
      deps.outbox,
      tls,
    );
    deps.metrics?.ingestCommitted(batch.length, performance.now() - started);
    return () => {
      for (const [i, p] of batch.entries()) p.resolve(outcomes[i] as IngestOutcome);
      for (const event of events) deps.bus.publish(event);
      if (enqueued > 0) deps.outbox?.committed();
    };
  } catch (error) {
    logFailure(deps.logger, error, 'storing results failed', { results: batch.length });
    for (const p of batch) p.reject(error);
    return () => {};
  }
}
