// Queries over a list of ids of any length, in chunks that keep SQLite under its bound-parameter limit.

/** Ids per `in (…)` list. */
export const IDS_PER_QUERY = 500;

/** Runs a query per chunk of ids and concatenates the rows. */
export async function inChunks<T>(ids: readonly string[], query: (chunk: string[]) => Promise<T[]>): Promise<T[]> {
  const out: T[] = [];
  for (let i = 0; i < ids.length; i += IDS_PER_QUERY) out.push(...(await query(ids.slice(i, i + IDS_PER_QUERY))));
  return out;
}
