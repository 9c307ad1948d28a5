// The change counter: one row (id 1) that every committed config or API write moves on, and every process polls.

import type { Db } from '../tables.js';

export interface ChangeRepository {
  /**
   * Moves the counter on; called inside the transaction of a write that other processes must see (config, API), so
   * the move commits, or rolls back, with it. Returns the new value.
   */
  bump(): Promise<number>;
  /** The counter's value: one indexed row, cheap enough to poll every second. */
  current(): Promise<number>;
}

export function changeRepository(db: Db): ChangeRepository {
  return {
    async bump() {
      // One statement: the row lock (PostgreSQL) or the write lock (SQLite) serializes concurrent bumps, none is lost.
      const row = await db
        .updateTable('change_counter')
        .set((eb) => ({ version: eb('version', '+', 1) }))
        .where('id', '=', 1)
        .returning('version')
        .executeTakeFirstOrThrow();
      return Number(row.version);
    },
    async current() {
      const row = await db.selectFrom('change_counter').select('version').where('id', '=', 1).executeTakeFirstOrThrow();
      return Number(row.version);
    },
  };
}
