// The one path every result takes (edge runner, relays, heartbeats): store the check and its buckets, derive the state, publish events.
import type { Bus } from '../bus/bus.js';
import type { WardenEvent } from '../bus/events.js';
import type { Clock } from '../domain/clock.js';
import type { CheckSource, MonitorState } from '../domain/monitor-type.js';
import { nextMonitorState } from '../domain/states.js';
import type { Logger } from '../logger.js';
import { addToBuckets, type CheckRow, insertChecks, type SqliteWrites, sqliteWrites, updateMonitorStates } from '../store/checks.js';
import type { Db } from '../store/connect.js';
import type { LatestResult } from '../store/monitors.js';
import type { MonitorsTable } from '../store/tables.js';

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
}

export type IngestOutcome =
  | { stored: true; monitorId: string; state: MonitorState; checkedAt: number }
  | { stored: false; monitorId: string; reason: 'duplicate' | 'unknown monitor' };

export interface Ingest {
  /** Resolves once the result is committed to the database (or was already there). */
  record(input: IngestInput): Promise<IngestOutcome>;
  recordMany(inputs: IngestInput[]): Promise<IngestOutcome[]>;
  /** Waits for everything queued so far to be committed. */
  flush(): Promise<void>;
  close(): Promise<void>;
}

export class IngestOverloadedError extends Error {
  constructor() {
    super('too many results are waiting to be stored; retry shortly');
  }
}

/** Results committed per transaction; more wait for the next one. */
export const INGEST_MAX_BATCH = 2000;
/** How long an edge result may wait for others to share its transaction. */
export const EDGE_LINGER_MS = 100;
/** Results waiting at most; beyond it record() fails fast instead of queueing without bound. */
export const INGEST_MAX_QUEUE = 100_000;

interface Pending {
  input: IngestInput;
  resolve: (outcome: IngestOutcome) => void;
  reject: (error: unknown) => void;
}

/**
 * Group commit: results recorded in the same tick, or while a transaction is running, are committed
 * together in the next transaction. Each caller's promise resolves only after its commit, so a 200
 * always means "durably stored", yet thousands of results share one fsync.
 */
export function createIngest(deps: { db: Db; bus: Bus; clock: Clock; logger: Logger }): Ingest {
  let queue: Pending[] = [];
  /** True while the drain loop runs; cleared in the same tick the loop sees an empty queue, so nothing is stranded. */
  let draining = false;
  let idle: Promise<void> = Promise.resolve();
  let scheduled = false;
  let closed = false;

  let lingering: NodeJS.Timeout | null = null;

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

  async function drain(): Promise<void> {
    try {
      while (queue.length > 0) {
        const batch = queue.slice(0, INGEST_MAX_BATCH);
        queue = queue.slice(batch.length);
        try {
          const { outcomes, events } = await commit(deps.db, batch.map((p) => p.input), deps.clock.now());
          for (const [i, p] of batch.entries()) p.resolve(outcomes[i] as IngestOutcome);
          for (const event of events) deps.bus.publish(event);
        } catch (error) {
          deps.logger.error({ err: error, results: batch.length }, 'storing results failed');
          for (const p of batch) p.reject(error);
        }
      }
    } finally {
      draining = false;
    }
  }

  function enqueue(input: IngestInput): Promise<IngestOutcome> {
    if (closed) return Promise.reject(new Error('ingest is closed'));
    if (queue.length >= INGEST_MAX_QUEUE) return Promise.reject(new IngestOverloadedError());
    return new Promise((resolve, reject) => {
      queue.push({ input, resolve, reject });
      if (draining) return; // the running loop takes it in its next transaction
      if (queue.length >= INGEST_MAX_BATCH) startDrain();
      else schedule(input.source !== 'edge');
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

async function commit(db: Db, inputs: IngestInput[], now: number): Promise<{ outcomes: IngestOutcome[]; events: WardenEvent[] }> {
  const fast: SqliteWrites | undefined = sqliteWrites(db);
  return db.transaction().execute(async (trx) => {
    const ids = [...new Set(inputs.map((i) => i.monitorId))];
    const monitors = new Map<string, MonitorsTable>();
    for (let i = 0; i < ids.length; i += 500)
      for (const row of await trx.selectFrom('monitors').selectAll().where('id', 'in', ids.slice(i, i + 500)).execute()) monitors.set(row.id, row);

    const resultIds = inputs.filter((i) => i.resultId !== undefined).map((i) => i.resultId as string);
    const seen = new Set<string>();
    for (let i = 0; i < resultIds.length; i += 500) {
      const rows = await trx
        .selectFrom('checks')
        .select(['monitor_id', 'result_id'])
        .where('result_id', 'in', resultIds.slice(i, i + 500))
        .execute();
      for (const r of rows) seen.add(`${r.monitor_id}\u0000${r.result_id}`);
    }

    const outcomes: IngestOutcome[] = [];
    const events: WardenEvent[] = [];
    const rows: CheckRow[] = [];
    const touched = new Set<string>();
    for (const input of inputs) {
      const monitor = monitors.get(input.monitorId);
      if (!monitor) {
        outcomes.push({ stored: false, monitorId: input.monitorId, reason: 'unknown monitor' });
        continue;
      }
      if (input.resultId !== undefined) {
        const key = `${input.monitorId}\u0000${input.resultId}`;
        if (seen.has(key)) {
          outcomes.push({ stored: false, monitorId: input.monitorId, reason: 'duplicate' });
          continue;
        }
        seen.add(key);
      }
      const checkedAt = input.checkedAt ?? now;
      const row: CheckRow = {
        monitorId: monitor.id,
        checkedAt,
        ok: input.ok,
        degraded: false,
        latencyMs: input.latencyMs ?? null,
        message: input.message ?? null,
        error: input.error ?? null,
        data: input.data ?? null,
        source: input.source,
        resultId: input.resultId ?? null,
      };
      // A late result (older than the latest) goes into history but does not move the current state.
      if (monitor.last_check_at === null || checkedAt >= monitor.last_check_at) {
        const transition = nextMonitorState(
          {
            state: monitor.state,
            failureStreak: monitor.failure_streak,
            retries: monitor.retries,
            degradedLatencyMs: monitor.degraded_latency_ms,
          },
          { ok: input.ok, latencyMs: row.latencyMs, degraded: input.degraded ?? false, source: input.source },
        );
        row.degraded = transition.state === 'degraded';
        if (transition.state !== monitor.state) {
          events.push({
            type: 'monitor.state',
            at: checkedAt,
            monitorId: monitor.id,
            organizationId: monitor.organization_id,
            previous: monitor.state,
            state: transition.state,
            reason: transition.reason,
          });
          monitor.state = transition.state;
          monitor.state_since = checkedAt;
        }
        monitor.failure_streak = transition.failureStreak;
        monitor.last_check_at = checkedAt;
        const latest: LatestResult = {
          checkedAt,
          ok: row.ok,
          latencyMs: row.latencyMs,
          message: row.message,
          error: row.error,
          data: row.data,
          source: row.source,
        };
        monitor.last_result = JSON.stringify(latest);
        touched.add(monitor.id);
      } else row.degraded = input.ok && (input.degraded ?? false);
      rows.push(row);
      events.push({ type: 'monitor.checked', at: checkedAt, monitorId: monitor.id, organizationId: monitor.organization_id, ok: input.ok });
      outcomes.push({ stored: true, monitorId: monitor.id, state: monitor.state, checkedAt });
    }

    await insertChecks(trx, rows, fast);
    await addToBuckets(trx, rows, fast);
    await updateMonitorStates(
      trx,
      [...touched].map((id) => monitors.get(id) as MonitorsTable),
      fast,
    );
    return { outcomes, events };
  });
}

