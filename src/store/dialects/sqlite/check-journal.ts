// SQLite's check journal: an ingest commit appends its checks to a table without indexes, and about once a second
// they are folded, many commits at a time, into `checks` and the hourly and daily buckets. Reads of history fold
// first, so nothing reads around it. Why: a commit of ~50 heartbeats for ~50 monitors dirtied ~70 pages, 48 of them
// leaves of checks' monitor/time index (one per monitor), each written to the log and synced on every commit; the
// journal's commit dirties its table's last page or two, and a fold writes each monitor's leaf once for many commits.
import type SqliteDatabase from 'better-sqlite3';
import type { CheckRow } from '../../../domain/check.js';
import type { CheckSource } from '../../../domain/monitor-type.js';
import type { CheckJournal } from '../../check-statements.js';
import type { Db } from '../../tables.js';
import { sqliteFault } from './faults.js';

/** How long journaled checks wait, at most, for a fold when nothing reads history meanwhile. */
export const FOLD_INTERVAL_MS = 1000;
/** Journal rows folded per pass (a fold takes passes until the journal is empty, in one transaction). */
const FOLD_BATCH_ROWS = 20_000;
/** A batch of more checks than this (an import) goes to `checks` at once: folding it later would write it twice. */
export const JOURNAL_MAX_BATCH = 1000;

/** The journal's columns, in the order `append` binds them. */
const COLUMNS = [
  'monitor_id',
  'checked_at',
  'ok',
  'degraded',
  'latency_ms',
  'message',
  'error',
  'data',
  'source',
] as const;

/**
 * `root`: the connection's Kysely instance (a fold takes its turn on the connection like any transaction).
 * `addToBuckets`: adds checks to their hourly and daily buckets, synchronously, as the check writer does.
 */
export function sqliteCheckJournal(
  root: Db,
  handle: SqliteDatabase.Database,
  addToBuckets: (checks: readonly CheckRow[]) => void,
): CheckJournal {
  let statements: ReturnType<typeof prepare> | undefined;
  let timer: NodeJS.Timeout | undefined;
  let closed = false;

  /** The statements, once the table exists (a store opened on a database that is not migrated yet has none). */
  function ready() {
    if (statements) return statements;
    const exists = handle.prepare("select 1 from sqlite_master where type = 'table' and name = 'check_journal'").get();
    if (exists) statements = prepare(handle);
    return statements;
  }

  /** Folds every journaled row; runs inside a transaction on the connection. */
  function fold(): void {
    const s = ready();
    if (!s) return;
    for (;;) {
      const rows = s.batch.all(FOLD_BATCH_ROWS) as JournalRow[];
      if (rows.length === 0) return;
      const last = rows[rows.length - 1]![0];
      s.copy.run(last);
      addToBuckets(rows.map(toCheck));
      s.clear.run(last);
      if (rows.length < FOLD_BATCH_ROWS) return;
    }
  }

  /**
   * A fold in a transaction of its own, which takes the write lock before it reads (BEGIN IMMEDIATE): a deferred one
   * that read first could not write once another process (the CLI, a second server) had committed meanwhile. The
   * connection is taken from Kysely for it, so no transaction of the store's is open on it.
   */
  const foldImmediately = handle.transaction(fold).immediate;
  /** Inside a reader's transaction: under a savepoint, so a fold that fails halfway (the file full) leaves nothing. */
  const foldWithin = handle.transaction(fold);
  async function foldAlone(): Promise<void> {
    await root.connection().execute(async () => foldImmediately());
  }

  function schedule(): void {
    if (timer || closed) return;
    timer = setTimeout(() => {
      timer = undefined;
      // A fold that failed (the file locked by another process past the busy timeout) leaves the rows journaled: it is
      // tried again, and every read of history tries it first.
      foldAlone().catch(() => schedule());
    }, FOLD_INTERVAL_MS);
    timer.unref();
  }

  return {
    takes: (checks) => checks.length <= JOURNAL_MAX_BATCH && ready() !== undefined,
    append(checks) {
      const s = ready();
      if (!s) throw new Error('the check journal is not there: the database is not migrated');
      for (const c of checks)
        s.append.run(
          c.monitorId,
          c.checkedAt,
          c.ok ? 1 : 0,
          c.degraded ? 1 : 0,
          c.latencyMs,
          c.message,
          c.error,
          c.data === null ? null : JSON.stringify(c.data),
          c.source,
        );
      if (checks.length > 0) schedule();
    },
    async settle(db) {
      // Read each time rather than counted here: another process (the CLI) may have journaled, or a fold rolled back.
      if (!ready()?.any.get()) return;
      try {
        if (db.isTransaction) foldWithin();
        else await foldAlone();
      } catch (error) {
        // Another process holds the file's write lock (past the busy timeout), or the file is full: the read goes on
        // without this fold rather than fail, and the timer folds the rows once it can. (A reader's transaction holds
        // the lock from its start: connect.ts begins every one IMMEDIATE.) A fold that fails is rolled back whole, so
        // nothing of it is left behind. Unless SQLite cancelled the reader's own transaction with it: what follows
        // would run outside it.
        if (sqliteFault(error) === null || (db.isTransaction && !handle.inTransaction)) throw error;
        schedule();
      }
    },
    async close() {
      closed = true;
      clearTimeout(timer);
      timer = undefined;
      // A fold that cannot be made now (the disk full) leaves the rows journaled: the next start folds them.
      if (statements?.any.get())
        await foldAlone().catch((error: unknown) => {
          if (sqliteFault(error) === null) throw error;
        });
    },
  };
}

/** A journal row as `batch` returns it (raw): the id, then the columns the buckets need. */
type JournalRow = [
  id: number,
  monitorId: string,
  checkedAt: number,
  ok: number,
  degraded: number,
  latencyMs: number | null,
  data: string | null,
  source: string,
];

function toCheck(r: JournalRow): CheckRow {
  return {
    monitorId: r[1],
    checkedAt: r[2],
    ok: r[3] === 1,
    degraded: r[4] === 1,
    latencyMs: r[5],
    // `checks` gets the row by copy; only the buckets read these, and of the data only its player count.
    message: null,
    error: null,
    data: r[6] === null ? null : (JSON.parse(r[6]) as Record<string, unknown>),
    source: r[7] as CheckSource,
    resultId: null,
  };
}

function prepare(handle: SqliteDatabase.Database) {
  const columns = COLUMNS.join(', ');
  return {
    append: handle.prepare(`insert into check_journal (${columns}) values (${COLUMNS.map(() => '?').join(', ')})`),
    any: handle.prepare('select 1 from check_journal limit 1').pluck(),
    batch: handle
      .prepare(
        'select id, monitor_id, checked_at, ok, degraded, latency_ms, data, source from check_journal order by id limit ?',
      )
      .raw(),
    // Ordered by id, so each monitor's checks keep the order they were committed in (`checks.id` breaks ties of time).
    copy: handle.prepare(
      'insert into checks (monitor_id, checked_at, ok, latency_ms, message, error, data, source) select monitor_id, checked_at, ok, latency_ms, message, error, data, source from check_journal where id <= ? order by id',
    ),
    clear: handle.prepare('delete from check_journal where id <= ?'),
  };
}
