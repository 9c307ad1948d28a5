// PostgreSQL's check journal (issue 38), as SQLite's (dialects/sqlite/check-journal.ts), relay results with their ids
// included (ingest looks ids up in both tables): an ingest commit appends its checks to `check_journal` (no index but its key) instead of updating `checks`' index and two bucket rows per
// monitor, and about once a second they are folded, thousands at a time, into `checks` and the buckets: one bucket
// row per monitor and hour for a second's commits instead of one per commit. Reads of history fold first. In cluster
// mode every process folds: a fold waits for one under way (a transaction-scoped advisory lock per schema) and then
// finds its rows gone, so a read that folded first sees every commit before it; folds never wait on each other in a
// circle, and buckets are written in key order.
import { sql } from 'kysely';
import type { CheckRow } from '../../../domain/check.js';
import type { CheckSource } from '../../../domain/monitor-type.js';
import type { CheckJournal } from '../../check-statements.js';
import type { Db } from '../../tables.js';
import { bucketParts, runParts } from './set-statements.js';

/** How long journaled checks wait, at most, for a fold when nothing reads history meanwhile. */
export const FOLD_INTERVAL_MS = 1000;
/** Journal rows folded per statement (a fold takes passes until the journal is empty, in one transaction). */
const FOLD_BATCH_ROWS = 20_000;
/**
 * A batch of more checks than this (an import) goes to `checks` at once: folding it later would write it twice. Above
 * ingest's largest commit (INGEST_MAX_BATCH, 2,000): a commit of several relay batches is journaled whole.
 */
export const JOURNAL_MAX_BATCH = 5000;

/**
 * How often, at most, a process vacuums the journal after folding it. Every fold deletes what it moved, and PostgreSQL
 * only reclaims deleted rows by vacuuming: autovacuum looks once a minute at best, and meanwhile each commit's journal
 * insert and each fold walk past the dead rows of every fold before. Measured (3 writers, batches of 8 heartbeats):
 * PostgreSQL's CPU per heartbeat doubled within 10 s without it, and stayed flat with it.
 */
export const JOURNAL_VACUUM_EVERY_MS = 5000;

/** PostgreSQL's code for a relation that does not exist. */
const UNDEFINED_TABLE = '42P01';
/** PostgreSQL's code for a statement the role may not make. */
const INSUFFICIENT_PRIVILEGE = '42501';
/** PostgreSQL's code for a statement it cannot read: `skip_locked` is PostgreSQL 12's. */
const SYNTAX_ERROR = '42601';

interface JournalRow {
  monitor_id: string;
  checked_at: number;
  ok: number;
  degraded: number;
  latency_ms: number | null;
  data: string | null;
  source: string;
}

/** `root`: the pool's Kysely instance, for the folds the timer and `close` make in transactions of their own. */
export function postgresCheckJournal(root: Db): CheckJournal & { appended(): void } {
  let timer: NodeJS.Timeout | undefined;
  let closed = false;

  let lastVacuum = Number.NEGATIVE_INFINITY;
  let vacuuming: Promise<void> | null = null;
  /** Rows folded since the journal was last vacuumed: a journal nobody writes to is not vacuumed again. */
  let foldedSince = 0;
  /** The database refused (the role does not own the table, or it is older than 12): autovacuum alone keeps it. */
  let refused = false;

  /**
   * Vacuums the journal once JOURNAL_VACUUM_EVERY_MS passed since the last time, if something was folded since. In a
   * cluster, a process that finds another one vacuuming it skips (`skip_locked`). Not awaited by the fold.
   */
  function vacuumSoon(): void {
    if (refused || closed || vacuuming || foldedSince === 0) return;
    if (performance.now() - lastVacuum < JOURNAL_VACUUM_EVERY_MS) return;
    lastVacuum = performance.now();
    foldedSince = 0;
    vacuuming = sql`vacuum (skip_locked) check_journal`
      .execute(root)
      .then(
        () => {},
        (error: unknown) => {
          const code = (error as { code?: unknown } | null)?.code;
          if (code === INSUFFICIENT_PRIVILEGE || code === SYNTAX_ERROR) refused = true;
        },
      )
      .finally(() => {
        vacuuming = null;
      });
  }

  /** Folds the journal, after any fold under way elsewhere (held until the caller's transaction ends); inside it. */
  async function fold(db: Db): Promise<void> {
    await sql`select pg_advisory_xact_lock(hashtext(current_schema() || '.warden_journal_fold'))`.execute(db);
    for (;;) {
      const { rows } = await foldStatement(FOLD_BATCH_ROWS).execute(db);
      await runParts(db, bucketParts(rows.map(toCheck)));
      foldedSince += rows.length;
      if (rows.length < FOLD_BATCH_ROWS) return;
    }
  }

  const foldAlone = async () => {
    await root.transaction().execute(fold);
    vacuumSoon();
  };

  function schedule(): void {
    if (timer || closed) return;
    timer = setTimeout(() => {
      timer = undefined;
      // A fold that failed (PostgreSQL away) leaves the rows journaled: it is tried again, and every read tries first.
      foldAlone().catch(() => schedule());
    }, FOLD_INTERVAL_MS);
    timer.unref();
  }

  return {
    takes: (checks) => checks.length <= JOURNAL_MAX_BATCH,
    // The writer inserts the rows, in the commit's one statement (check-writer.ts): this only arms the fold.
    append: () => {},
    appended: schedule,
    async settle(db) {
      // Asked each time: another process of the cluster may have journaled what this one reads.
      const found = await sql<{ any: number }>`select 1 as any from check_journal limit 1`.execute(db).then(
        ({ rows }) => rows.length > 0,
        // A database not migrated yet (no journal) has nothing journaled.
        (error: unknown) => {
          if ((error as { code?: unknown } | null)?.code === UNDEFINED_TABLE && !db.isTransaction) return false;
          throw error;
        },
      );
      if (!found) return;
      // A fold in the caller's transaction is vacuumed after the next one on its own (the timer's, within a second).
      if (db.isTransaction) await fold(db);
      else await foldAlone();
    },
    async close() {
      closed = true;
      clearTimeout(timer);
      timer = undefined;
      // A fold that cannot be made now (PostgreSQL away) leaves the rows journaled: the next fold anywhere takes them.
      await foldAlone().catch(() => {});
      // A vacuum under way ends before the pool closes (none starts once closed).
      await vacuuming;
    },
  };
}

/**
 * One pass of a fold: the oldest `limit` journal rows deleted, copied into `checks`, and returned for their buckets.
 * Exported for the test that reads its plan.
 */
export function foldStatement(limit: number) {
  // Ordered by id, so each monitor's checks keep the order they were committed in (`checks.id` breaks ties of time):
  // those without a result id first, then relay results (`copied` reads `plain` to its end before inserting). Only a
  // relay result may already be in `checks` (written there directly), so only they are inserted `on conflict do
  // nothing`: a conflict-checked insert is a speculative one, which writes a second WAL record per row to confirm it
  // and probes every unique index first (a tenth of the WAL a heartbeat cost: 1,099 → 970 bytes).
  // One fold at a time per schema (the advisory lock in `fold`), so the rows need no lock of their own: locking each
  // one wrote another WAL record per row (970 → 935 bytes a heartbeat).
  // The rows up to the last id of the oldest, not `id in (…)` nor `id = any(array(…))`: one range, linear whatever the
  // planner believes of the journal's size. After a vacuum found it empty (reltuples 0 on pages kept), `in (…)` was
  // planned as a nested loop running the subquery again for every row (a fold of 25,000 rows ran for minutes, the
  // folds queued behind it held every connection, and the processes lost their leases), and `= any(…)` as a scan
  // searching the whole array for every row.
  return sql<JournalRow>`with moved as (
          delete from check_journal where id <= (select max(id) from
            (select id from check_journal order by id limit ${limit}) as oldest)
          returning id, monitor_id, checked_at, ok, degraded, latency_ms, message, error, data, source, result_id),
        plain as (insert into checks (monitor_id, checked_at, ok, latency_ms, message, error, data, source)
          select monitor_id, checked_at, ok, latency_ms, message, error, data, source from moved
          where result_id is null order by id
          returning 1 as one),
        copied as (insert into checks (monitor_id, checked_at, ok, latency_ms, message, error, data, source, result_id)
          select monitor_id, checked_at, ok, latency_ms, message, error, data, source, result_id from moved
          where result_id is not null and (select count(*) from plain) >= 0 order by id
          on conflict do nothing
          returning monitor_id, result_id)
        select monitor_id, checked_at, ok, degraded, latency_ms, data, source from moved m
        -- A relay result already in \`checks\` (written there directly) is not copied, nor counted again.
        -- \`in\` rather than a correlated \`exists\`: hashed once, not a scan of \`copied\` for every relay result.
        where result_id is null or (monitor_id, result_id) in (select monitor_id, result_id from copied)
        order by id`;
}

function toCheck(r: JournalRow): CheckRow {
  return {
    monitorId: r.monitor_id,
    checkedAt: r.checked_at,
    ok: r.ok === 1,
    degraded: r.degraded === 1,
    latencyMs: r.latency_ms,
    // `checks` got the row by copy; only the buckets read these, and of the data only its player count.
    message: null,
    error: null,
    data: r.data === null ? null : (JSON.parse(r.data) as Record<string, unknown>),
    source: r.source as CheckSource,
    resultId: null,
  };
}
