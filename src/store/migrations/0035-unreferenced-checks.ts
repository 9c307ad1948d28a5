// On PostgreSQL, `checks` and `check_journal` no longer reference `monitors` (issue 38, docs/storage.md "Checks
// without a foreign key"). A reference costs a lookup of the monitor, made through a trigger, for every row inserted:
// every heartbeat twice (its journal row, then its copy into `checks`), about a fifth of PostgreSQL's CPU per stored
// result, and the fold's key-share locks on the monitors ingest updates meanwhile. What the reference did, deleting a
// monitor's checks with it, the store now does itself (repositories/monitors.ts), and nothing can add a check for a
// monitor that is gone: ingest writes a check only with its monitor's row locked. SQLite keeps its references: its
// checks are inserted in-process, where the lookup is cheap, and it cannot drop a column's reference in place.
import { PostgresAdapter, sql } from 'kysely';
import type { AnyDb } from './schema-parts.js';

const TABLES = ['check_journal', 'checks'] as const;

const postgres = (db: AnyDb) => db.getExecutor().adapter instanceof PostgresAdapter;

export async function up(db: AnyDb): Promise<void> {
  if (!postgres(db)) return;
  for (const table of TABLES) {
    // By what it references, not by name: 0034 rebuilt `checks` from the catalog, keeping whatever name it had.
    const { rows } = await sql<{ name: string }>`select conname as name from pg_constraint
      where conrelid = ${table}::regclass and contype = 'f' and confrelid = 'monitors'::regclass`.execute(db);
    for (const { name } of rows) await sql`alter table ${sql.table(table)} drop constraint ${sql.id(name)}`.execute(db);
  }
}

export async function down(db: AnyDb): Promise<void> {
  if (!postgres(db)) return;
  for (const table of TABLES) {
    // A check of a monitor deleted meanwhile would fail the reference: it goes first.
    await sql`delete from ${sql.table(table)} t where not exists (select 1 from monitors m where m.id = t.monitor_id)`.execute(
      db,
    );
    await sql`alter table ${sql.table(table)} add constraint ${sql.id(`${table}_monitor_id_fkey`)}
      foreign key (monitor_id) references monitors (id) on delete cascade`.execute(db);
  }
}
