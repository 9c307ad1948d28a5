// Counting the rows a query selects, the same way for every repository.
import type { SelectQueryBuilder } from 'kysely';
import type { Database } from '../tables.js';

// biome-ignore lint/suspicious/noExplicitAny: any table and selection; only the row count is read.
export async function countOf(query: SelectQueryBuilder<Database, any, any>): Promise<number> {
  const row = await query.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
  return Number(row.n);
}
