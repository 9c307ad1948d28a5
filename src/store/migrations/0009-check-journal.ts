// The check journal (issue 19): heartbeats and probe results committed in a table without indexes, folded into
// `checks` and the buckets about once a second (dialects/sqlite/check-journal.ts). Created on both dialects so
// they keep one schema; PostgreSQL's stays empty (docs/storage.md).
import { type Kysely, PostgresAdapter } from 'kysely';

// biome-ignore lint/suspicious/noExplicitAny: migrations are frozen in time and must not follow today's table types.
type AnyDb = Kysely<any>;

const time = 'bigint';

export async function up(db: AnyDb): Promise<void> {
  const postgres = db.getExecutor().adapter instanceof PostgresAdapter;
  await db.schema
    .createTable('check_journal')
    // The order rows were committed in; SQLite's rowid, so an append touches the table's last page only.
    .addColumn('id', postgres ? 'bigint' : 'integer', (c) =>
      postgres ? c.primaryKey().generatedByDefaultAsIdentity() : c.primaryKey(),
    )
    // A deleted monitor takes its journaled rows with it, as it takes its checks.
    .addColumn('monitor_id', 'text', (c) => c.notNull().references('monitors.id').onDelete('cascade'))
    .addColumn('checked_at', time, (c) => c.notNull())
    .addColumn('ok', 'integer', (c) => c.notNull())
    // `checks` does not keep it, but its buckets count it.
    .addColumn('degraded', 'integer', (c) => c.notNull())
    .addColumn('latency_ms', 'integer')
    .addColumn('message', 'text')
    .addColumn('error', 'text')
    .addColumn('data', 'text')
    .addColumn('source', 'text', (c) => c.notNull())
    .execute();
}

export async function down(db: AnyDb): Promise<void> {
  await db.schema.dropTable('check_journal').execute();
}
