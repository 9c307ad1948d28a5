// How many checks a benchmark's server has stored, read from its SQLite file by a second connection.
import { openStore } from '../src/store/open-store.js';
import { countStoredChecks } from '../test/stored-checks.js';

export async function countChecks(dataDir: string): Promise<number> {
  const store = await openStore({ dataDir });
  try {
    return await countStoredChecks(store);
  } finally {
    await store.close();
  }
}
