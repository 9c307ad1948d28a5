// SQLite writes an ingest commit as statements prepared once, executed once per row on the one connection.
import type SqliteDatabase from 'better-sqlite3';
import {
  type BucketPeriod,
  type CheckRow,
  emptyBucket,
  emptyLocationBucket,
  rollUp,
  rollUpLocations,
} from '../../../domain/check.js';
import {
  BUCKET_TABLES,
  bucketParameters,
  bucketValues,
  type CheckJournal,
  type CheckWriter,
  checkValues,
  insertChecksQuery,
  locationBucketValues,
  updateStateQuery,
  upsertBucketsQuery,
  upsertLocationBucketsQuery,
} from '../../check-statements.js';
import type { Db } from '../../tables.js';
import { sqliteCheckJournal } from './check-journal.js';

/**
 * The SQL is Kysely's, compiled once from the same builders PostgreSQL executes; only building and compiling a
 * multi-row statement for every commit is skipped, which was a quarter of the CPU of a heartbeat. SQLite has one
 * connection, so the statements run inside the transaction the store holds on it (the check repository always
 * calls the writer inside one): the writer needs no handle of the transaction.
 *
 * Checks go to the journal (check-journal.ts), which folds them into `checks` and the buckets with this writer's
 * bucket upserts; a relay result with an id, whose replay must be seen at once, and an import's large batch go to
 * `checks` directly.
 */
export function sqliteCheckWriter(
  root: Db,
  handle: SqliteDatabase.Database,
): { write: CheckWriter; journal: CheckJournal } {
  let prepared: ReturnType<typeof prepare> | undefined;
  const statements = () => (prepared ??= prepare(root, handle));
  const addToBuckets = (checks: readonly CheckRow[]) => {
    const s = statements();
    for (const period of ['hour', 'day'] as const satisfies BucketPeriod[])
      for (const b of rollUp(checks, period)) s.upsertBucket[period].run(bucketParameters(b));
  };
  const storeNow = (checks: readonly CheckRow[]) => {
    if (checks.length === 0) return;
    const s = statements();
    // A replayed relay result is skipped by the insert, and must not be counted in its buckets again either.
    const stored: CheckRow[] = [];
    for (const c of checks) if (s.insertCheck.run(Object.values(checkValues(c))).changes > 0) stored.push(c);
    addToBuckets(stored);
    for (const b of rollUpLocations(stored)) s.upsertLocationBucket.run(Object.values(locationBucketValues(b)));
  };
  const journal = sqliteCheckJournal(root, handle, addToBuckets);
  const write: CheckWriter = async (_db, checks, states) => {
    const s = statements();
    if (journal.takes(checks)) {
      const journaled: CheckRow[] = [];
      const withIds: CheckRow[] = [];
      // A multi-location monitor's check (with its location and the state it counts as) goes to `checks` at once too.
      for (const c of checks) (c.resultId === null && c.location == null ? journaled : withIds).push(c);
      journal.append(journaled);
      storeNow(withIds);
    } else storeNow(checks);
    for (const m of states)
      s.updateState.run([
        m.state,
        m.stateSince,
        m.failureStreak,
        m.lastCheckAt,
        m.lastResult,
        m.playerAlertsState,
        m.locationResults ?? null,
        m.id,
      ]);
  };
  return { write, journal };
}

function prepare(db: Db, handle: SqliteDatabase.Database) {
  const statement = (query: { compile(): { sql: string; parameters: readonly unknown[] } }, parameters: number) => {
    const compiled = query.compile();
    // Rows are passed positionally: a builder that added a parameter of its own would shift them.
    if (compiled.parameters.length !== parameters) throw new Error(`unexpected parameters in ${compiled.sql}`);
    return handle.prepare(compiled.sql);
  };
  const check = checkValues({
    monitorId: '',
    checkedAt: 0,
    ok: true,
    degraded: false,
    latencyMs: null,
    message: null,
    error: null,
    data: null,
    source: 'edge',
    resultId: null,
  });
  const bucket = bucketValues(emptyBucket('', 0));
  const locationBucket = locationBucketValues(emptyLocationBucket('', '', 0));
  // The positional parameters must be the row's values in its column order.
  if (JSON.stringify(bucketParameters(emptyBucket('', 0))) !== JSON.stringify(Object.values(bucket)))
    throw new Error('bucketParameters and bucketValues disagree');
  const state = {
    id: '',
    organizationId: '',
    retries: 0,
    degradedLatencyMs: null,
    state: 'unknown' as const,
    stateSince: 0,
    failureStreak: 0,
    lastCheckAt: null,
    lastResult: null,
    playerAlerts: null,
    playerAlertsState: null,
  };
  return {
    insertCheck: statement(insertChecksQuery(db, [check]), Object.keys(check).length),
    upsertBucket: {
      hour: statement(upsertBucketsQuery(db, BUCKET_TABLES.hour, [bucket]), Object.keys(bucket).length),
      day: statement(upsertBucketsQuery(db, BUCKET_TABLES.day, [bucket]), Object.keys(bucket).length),
    },
    upsertLocationBucket: statement(
      upsertLocationBucketsQuery(db, [locationBucket]),
      Object.keys(locationBucket).length,
    ),
    updateState: statement(updateStateQuery(db, state), 8),
  };
}
