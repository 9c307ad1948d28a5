// The server's own secrets (the key of known-device cookies): made by the first process that needs one, shared by all;
// and a few values a server records for the command line (the address it listens at).
import type { Db } from '../tables.js';

export interface ServerSecretRepository {
  /**
   * The secret named `name`, made with `make` and stored the first time it is asked for. Two processes asking at once
   * both get the one stored first.
   */
  getOrCreate(name: string, make: () => string, now: number): Promise<string>;
  /** What is stored under `name`, or undefined. */
  get(name: string): Promise<string | undefined>;
  /** Stores `value` under `name`, replacing what was there (a setting a process records, such as its address). */
  put(name: string, value: string, now: number): Promise<void>;
}

export function serverSecretRepository(db: Db): ServerSecretRepository {
  return {
    async getOrCreate(name, make, now) {
      const stored = await db.selectFrom('server_secrets').select('value').where('name', '=', name).executeTakeFirst();
      if (stored) return stored.value;
      // Whoever inserts first wins; the other process's insert does nothing, and both read the one stored.
      await db
        .insertInto('server_secrets')
        .values({ name, value: make(), created_at: now })
        .onConflict((oc) => oc.column('name').doNothing())
        .execute();
      const row = await db
        .selectFrom('server_secrets')
        .select('value')
        .where('name', '=', name)
        .executeTakeFirstOrThrow();
      return row.value;
    },
    async get(name) {
      return (await db.selectFrom('server_secrets').select('value').where('name', '=', name).executeTakeFirst())?.value;
    },
    async put(name, value, now) {
      await db
        .insertInto('server_secrets')
        .values({ name, value, created_at: now })
        .onConflict((oc) => oc.column('name').doUpdateSet({ value, created_at: now }))
        .execute();
    },
  };
}
