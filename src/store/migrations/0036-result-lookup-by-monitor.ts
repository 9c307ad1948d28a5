// On PostgreSQL, `checks` loses its index of result ids alone (issue 38, docs/storage.md "Replays looked up by
// monitor"): ingest now looks a relay result up by its monitor and its id, which the unique index of both (with the
// time, 0034) serves, so the second index only cost an insertion for every relay result stored. SQLite keeps it.
import { PostgresAdapter, sql } from 'kysely';
import type { AnyDb } from './schema-parts.js';

const postgres = (db: AnyDb) => db.getExecutor().adapter instanceof PostgresAdapter;

export async function up(db: AnyDb): Promise<void> {
  if (postgres(db)) await sql`drop index if exists checks_result`.execute(db);
}

export async function down(db: AnyDb): Promise<void> {
  if (postgres(db))
    await sql`create index if not exists checks_result on checks (result_id) where result_id is not null`.execute(db);
}
