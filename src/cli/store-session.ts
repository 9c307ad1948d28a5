// Opens the same store the server uses (WARDEN_DATA_DIR or DATABASE_URL), migrated, for one CLI command.
import { readSettings } from '../config/settings.js';
import { connectStore, type Store } from '../store/connect.js';
import { migrateToLatest } from '../store/migrate.js';

export async function withStore<T>(run: (store: Store) => Promise<T>, { migrate = true } = {}): Promise<T> {
  const store = await connectStore(readSettings());
  try {
    if (migrate) await migrateToLatest(store.db);
    return await run(store);
  } finally {
    await store.close();
  }
}

/** Writes a table to standard output, columns aligned. */
export function printTable(headers: string[], rows: string[][]): void {
  const widths = headers.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
  const line = (cells: string[]) => cells.map((cell, i) => cell.padEnd(widths[i] ?? 0)).join('  ').trimEnd();
  process.stdout.write(`${[line(headers), ...rows.map(line)].join('\n')}\n`);
}

export function formatTime(ms: number | null): string {
  return ms === null ? '-' : new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z');
}
