// PostgreSQL writes an ingest commit in one set-based statement (set-statements.ts): the checks journaled
// (check-journal.ts), or stored with their buckets when they must be at once, and the monitors' states.
import type { RawBuilder } from 'kysely';
import type { CheckWriter } from '../../check-statements.js';
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
    const journaled = journal.takes(checks) ? checks : [];
    const direct = journal.takes(checks) ? [] : checks;
    const parts: RawBuilder<unknown>[] = [];
    if (journaled.length > 0) parts.push(part('j', insertJournal(journaled)));
    // A replayed relay result is skipped by the insert, and must not be counted in its buckets again: the checks with
    // ids go first and say which were stored.
    const withIds = direct.some((c) => c.resultId !== null);
    const stored = withIds ? await insertChecksReturning(db, direct) : direct;
    if (!withIds && direct.length > 0) parts.push(part('c', insertChecks(direct)));
    parts.push(...bucketParts(stored));
    if (states.length > 0) parts.push(part('s', updateStates(states)));
    await runParts(db, parts);
    if (journaled.length > 0) journal.appended();
  };
}
