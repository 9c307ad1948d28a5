// PostgreSQL writes an ingest commit as a few multi-row statements: one round trip per table rather than one per row.
import { sql } from 'kysely';
import { type BucketPeriod, type CheckRow, rollUp, rollUpLocations } from '../../../domain/check.js';
import type { MonitorStateRow } from '../../../domain/monitor.js';
import {
  BUCKET_TABLES,
  bucketValues,
  type CheckWriter,
  checkValues,
  insertChecksQuery,
  locationBucketValues,
  upsertBucketsQuery,
  upsertLocationBucketsQuery,
} from '../../check-statements.js';
import type { Db } from '../../tables.js';

/** Rows per statement: PostgreSQL takes at most 65535 parameters in one. */
const ROWS_PER_STATEMENT = 500;

export const postgresCheckWriter: CheckWriter = async (db, checks, states) => {
  const stored = await insertChecks(db, checks);
  for (const period of ['hour', 'day'] as const satisfies BucketPeriod[])
    for (const rows of chunks(rollUp(stored, period).map(bucketValues)))
      await upsertBucketsQuery(db, BUCKET_TABLES[period], rows).execute();
  // Only checks of multi-location monitors name a location: a single-location commit adds no statement here.
  for (const rows of chunks(rollUpLocations(stored).map(locationBucketValues)))
    await upsertLocationBucketsQuery(db, rows).execute();
  for (const rows of chunks(states)) await updateStates(db, rows);
};

/** Inserts the checks and returns those stored: a replayed relay result is skipped, and must not be counted in its buckets again. */
async function insertChecks(db: Db, checks: readonly CheckRow[]): Promise<readonly CheckRow[]> {
  if (checks.every((c) => c.resultId === null)) {
    for (const rows of chunks(checks.map(checkValues))) await insertChecksQuery(db, rows).execute();
    return checks;
  }
  const stored: CheckRow[] = [];
  for (const chunk of chunks(checks)) {
    const inserted = await insertChecksQuery(db, chunk.map(checkValues))
      .returning(['monitor_id', 'result_id'])
      .execute();
    const keys = new Set(
      inserted.filter((r) => r.result_id !== null).map((r) => `${r.monitor_id}\u0000${r.result_id}`),
    );
    // A result id twice in one batch is inserted once: the first of the pair takes the key.
    for (const c of chunk) if (c.resultId === null || keys.delete(`${c.monitorId}\u0000${c.resultId}`)) stored.push(c);
  }
  return stored;
}

/** UPDATE … FROM (VALUES …): a monitor deleted meanwhile is simply not matched, it cannot come back. */
async function updateStates(db: Db, monitors: readonly MonitorStateRow[]): Promise<void> {
  const values = monitors.map(
    (m) =>
      sql`(${m.id}, ${m.state}, ${m.stateSince}::bigint, ${m.failureStreak}::integer, ${m.lastCheckAt}::bigint, ${m.lastResult}, ${m.playerAlertsState}, ${m.locationResults ?? null})`,
  );
  await sql`update monitors set state = v.state, state_since = v.state_since, failure_streak = v.failure_streak,
      last_check_at = v.last_check_at, last_result = v.last_result,
      player_alerts_state = v.player_alerts_state, location_results = v.location_results
    from (values ${sql.join(values)}) as v(id, state, state_since, failure_streak, last_check_at, last_result, player_alerts_state, location_results)
    where monitors.id = v.id`.execute(db);
}

function* chunks<T>(rows: readonly T[]): Generator<T[]> {
  for (let i = 0; i < rows.length; i += ROWS_PER_STATEMENT) yield rows.slice(i, i + ROWS_PER_STATEMENT);
}
