// How many checks a benchmark's server has stored, read from its SQLite file by a second connection.
import { connectStore } from '../src/store/connect.js';

export async function countChecks(dataDir: string): Promise<number> {
  const store = await connectStore({ dataDir });
  try {
    const row = await store.db.selectFrom('checks').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
    return Number(row.n);
  } finally {
    await store.close();
  }
}
