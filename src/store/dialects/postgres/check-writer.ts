// PostgreSQL writes an ingest commit in one set-based statement (set-statements.ts): the checks journaled
// (check-journal.ts), or stored with their buckets when they must be at once, and the monitors' states.
import type { RawBuilder } from 'kysely';
import type { CheckRow } from '../../../domain/check.js';
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
    // Relay results carry ids, whose replay must be seen at once, and an import's large batch would be written twice:
    // those go to `checks` now, the rest to the journal.
    const journaled: CheckRow[] = [];
    const direct: CheckRow[] = [];
    const takes = journal.takes(checks);
    for (const c of checks) (takes && c.resultId === null ? journaled : direct).push(c);
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
