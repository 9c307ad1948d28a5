// Pieces of schema several migrations declare alike. Shipped migrations use them: what each one declares must never
// change (add a new helper instead), or a fresh database would no longer match one migrated in steps.
import type { CreateTableBuilder, Kysely } from 'kysely';

// biome-ignore lint/suspicious/noExplicitAny: migrations are frozen in time and must not follow today's table types.
export type AnyDb = Kysely<any>;
// biome-ignore lint/suspicious/noExplicitAny: as above.
type Table = CreateTableBuilder<any, any>;

/** Times are epoch milliseconds. */
export const time = 'bigint';

/** A new table whose first column is its text primary key, `id`. */
export const tableWithId = (db: AnyDb, name: string): Table =>
  db.schema.createTable(name).addColumn('id', 'text', (c) => c.primaryKey());

/** `organization_id`: the organization a row belongs to, deleted with it. */
export const organizationId = (table: Table): Table =>
  table.addColumn('organization_id', 'text', (c) => c.notNull().references('organizations.id').onDelete('cascade'));

/** `created_at` and `updated_at`, both required. */
export const timestamps = (table: Table): Table =>
  table.addColumn('created_at', time, (c) => c.notNull()).addColumn('updated_at', time, (c) => c.notNull());

/** An index (a unique one when told) on these columns of a table. */
export async function createIndex(
  db: AnyDb,
  name: string,
  table: string,
  columns: string[],
  unique?: 'unique',
): Promise<void> {
  const index = db.schema.createIndex(name).on(table).columns(columns);
  await (unique ? index.unique() : index).execute();
}
