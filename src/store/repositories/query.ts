// The statements most repositories make about one table: a row found, rows changed or removed, by columns that must
// equal given values (null: the column is null). Anything more (ranges, joins, order) is written out where it is used.
import type { Kysely, Selectable, Updateable } from 'kysely';
import type { Database, Db } from '../tables.js';

type Table = keyof Database & string;
type Row<T extends Table> = Selectable<Database[T]>;

/** Columns and the values they must hold; null matches NULL. Every value given must be defined. */
export type Filter<T extends Table> = { [C in keyof Row<T>]?: Row<T>[C] };

// biome-ignore lint/suspicious/noExplicitAny: the table is a type parameter; callers see the typed signatures below.
type AnyDb = Kysely<any>;
// biome-ignore lint/suspicious/noExplicitAny: as above.
type AnyRecord = Record<string, any>;

/** `eb.and` drops undefined values: a filter missing a value by mistake must not widen to more rows. */
function checked<T extends Table>(filter: Filter<T>): AnyRecord {
  for (const [column, value] of Object.entries(filter))
    if (value === undefined) throw new Error(`no value for ${column} in a filter`);
  return filter;
}

/** A row found, mapped; undefined when none was. */
export const mapped = <R, T>(row: R | undefined, map: (row: R) => T): T | undefined =>
  row === undefined ? undefined : map(row);

/** The row of `table` matching the filter (the first, when several do). */
export async function findOne<T extends Table>(db: Db, table: T, filter: Filter<T>): Promise<Row<T> | undefined> {
  const row: AnyRecord | undefined = await (db as AnyDb)
    .selectFrom(table as string)
    .selectAll()
    .where((eb) => eb.and(checked(filter)))
    .executeTakeFirst();
  return row as Row<T> | undefined;
}

/** Sets `changes` on the rows of `table` matching the filter; how many there were. */
export async function updateWhere<T extends Table>(
  db: Db,
  table: T,
  filter: Filter<T>,
  changes: Updateable<Database[T]>,
): Promise<number> {
  const result = await (db as AnyDb)
    .updateTable(table as string)
    .set(changes as AnyRecord)
    .where((eb) => eb.and(checked(filter)))
    .executeTakeFirst();
  return Number(result.numUpdatedRows);
}

/** Deletes the rows of `table` matching the filter; how many there were. */
export async function deleteWhere<T extends Table>(db: Db, table: T, filter: Filter<T>): Promise<number> {
  const result = await (db as AnyDb)
    .deleteFrom(table as string)
    .where((eb) => eb.and(checked(filter)))
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}

type Expiring = { [K in Table]: 'expires_at' extends keyof Database[K] ? K : never }[Table];

/** Deletes the rows of `table` that expired at or before `now` (links, sessions, tokens); how many. */
export async function deleteExpired(db: Db, table: Expiring, now: number): Promise<number> {
  const result = await (db as AnyDb).deleteFrom(table).where('expires_at', '<=', now).executeTakeFirst();
  return Number(result.numDeletedRows);
}

/**
 * Marks the unused, unexpired one-time token with this hash and purpose used at `now` and returns its row; undefined
 * when there is none. One statement decides: two clicks on the same link cannot both use it.
 */
export async function consumeToken<T extends 'account_tokens' | 'email_links'>(
  db: Db,
  table: T,
  hash: string,
  purpose: Database[T]['purpose'],
  now: number,
): Promise<Row<T> | undefined> {
  const result = await (db as AnyDb)
    .updateTable(table as string)
    .set({ used_at: now })
    .where((eb) => eb.and([eb.and({ hash, purpose, used_at: null }), eb('expires_at', '>', now)]))
    .executeTakeFirst();
  if (Number(result.numUpdatedRows) === 0) return undefined;
  return findOne(db, table, { hash } as Filter<T>);
}
