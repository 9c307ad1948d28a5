// Relay results through the check journal (issue 38): a result's id rides with it until the fold copies it into
// `checks`, and ingest finds an id already journaled as it finds one already stored (a replay is skipped either way).
import { sql } from 'kysely';
import type { AnyDb } from './schema-parts.js';

export async function up(db: AnyDb): Promise<void> {
  await db.schema.alterTable('check_journal').addColumn('result_id', 'text').execute();
  // A result id once per monitor, as in `checks` (a replay journaled twice is skipped by the insert). Only relay
  // results carry an id: the other inserts never touch this index.
  await db.schema
    .createIndex('check_journal_result')
    .on('check_journal')
    .columns(['monitor_id', 'result_id'])
    .unique()
    .where(sql.ref('result_id'), 'is not', null)
    .execute();
}

export async function down(db: AnyDb): Promise<void> {
  await db.schema.dropIndex('check_journal_result').execute();
  await db.schema.alterTable('check_journal').dropColumn('result_id').execute();
}
