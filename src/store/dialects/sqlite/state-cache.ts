// The monitor states an ingest commit read and wrote, kept for the next commit, while nothing else can have changed
// them: SQLite has one connection per process, so every write but the ingest's own goes through the statement cache
// (connect.ts), which counts it, and a write by another process (the CLI) moves SQLite's data_version.
import type SqliteDatabase from 'better-sqlite3';
import type { MonitorStateRow } from '../../../domain/monitor.js';

/** States kept at most; past it the cache starts over (one row is a few hundred bytes). */
export const STATE_CACHE_MAX_ROWS = 20_000;

export interface MonitorStateCache {
  /**
   * The states of `ids` (sorted), inside the ingest's transaction: those kept since the last call, when no write but the
   * ingest's own has happened since, and the rest (or all) from `read`. The caller may change the rows it gets (and
   * writes them with the check writer, which the counter does not count): they are what the database will hold once
   * the transaction commits, and a transaction that does not commit rolls back, which the counter does count.
   */
  states(ids: readonly string[], read: (ids: string[]) => Promise<MonitorStateRow[]>): Promise<MonitorStateRow[]>;
}

/** `writes`: how many statements other than the ingest's own writes (and begin/commit) this connection has run. */
export function sqliteStateCache(database: SqliteDatabase.Database, writes: () => number): MonitorStateCache {
  const dataVersion = database.prepare<[], number>('pragma data_version').pluck();
  const kept = new Map<string, MonitorStateRow>();
  let keptAtWrites = -1;
  let keptAtVersion = -1;
  return {
    async states(ids, read) {
      const version = dataVersion.get() as number;
      if (writes() !== keptAtWrites || version !== keptAtVersion || kept.size > STATE_CACHE_MAX_ROWS) kept.clear();
      const missing = ids.filter((id) => !kept.has(id));
      if (missing.length > 0) for (const row of await read(missing)) kept.set(row.id, row);
      keptAtWrites = writes();
      keptAtVersion = version;
      return ids.flatMap((id) => kept.get(id) ?? []);
    },
  };
}
