// PostgreSQL writes an ingest commit in one set-based statement (set-statements.ts): the checks journaled
// (check-journal.ts), or stored with their buckets when they must be at once, and the monitors' states.
import type { RawBuilder } from 'kysely';
import { type CheckRow, rollUpLocations } from '../../../domain/check.js';
import { type CheckWriter, locationBucketValues, upsertLocationBucketsQuery } from '../../check-statements.js';
import type { postgresCheckJournal } from './check-journal.js';
import {
  bucketParts,
  insertChecks,
  insertChecksReturning,
  insertJournal,
  part,
  runParts,
  updateStates,
} from './set-statements.js';

export function postgresCheckWriter(journal: ReturnType<typeof postgresCheckJournal>): CheckWriter {
  return async (db, checks, states) => {
    // An import's large batch would be written twice: it goes to `checks` now, any other to the journal (relay results
    // with their ids: ingest, holding their monitors' rows, looked the ids up in both tables and skipped replays).
    // A multi-location monitor's check (with its location) goes to `checks` at once too, with its location's bucket.
    const journaled: CheckRow[] = [];
    const direct: CheckRow[] = [];
    const takes = journal.takes(checks);
    for (const c of checks) (takes && c.location == null ? journaled : direct).push(c);
    const parts: RawBuilder<unknown>[] = [];
    if (journaled.length > 0) parts.push(part('j', insertJournal(journaled)));
    // A replayed relay result is skipped by the insert, and must not be counted in its buckets again: the checks with
    // ids go first and say which were stored.
    const withIds = direct.some((c) => c.resultId !== null);
    const stored = withIds ? await insertChecksReturning(db, direct) : direct;
    if (!withIds && direct.length > 0) parts.push(part('c', insertChecks(direct)));
    parts.push(...bucketParts(stored));
    // Only checks of multi-location monitors name a location: a single-location commit adds no statement here.
    for (const rows of chunks(rollUpLocations(stored).map(locationBucketValues)))
      await upsertLocationBucketsQuery(db, rows).execute();
    if (states.length > 0) parts.push(part('s', updateStates(states)));
    await runParts(db, parts);
    if (journaled.length > 0) journal.appended();
  };
}

/** Rows per statement of per-location buckets: PostgreSQL takes at most 65535 parameters in one. */
const ROWS_PER_STATEMENT = 500;

function* chunks<T>(rows: readonly T[]): Generator<T[]> {
  for (let i = 0; i < rows.length; i += ROWS_PER_STATEMENT) yield rows.slice(i, i + ROWS_PER_STATEMENT);
}
