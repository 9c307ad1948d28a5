// The storage dialects every store test runs against: SQLite always, PostgreSQL when reachable, each test in its own schema.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import type { Store } from '../src/store/index.js';
import { openStore } from '../src/store/open-store.js';

export const POSTGRES_URL = process.env.WARDEN_TEST_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

async function reachable(url: string): Promise<boolean> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 2000 });
  try {
    await client.connect();
    await client.query('select 1');
    return true;
  } catch {
    return false;
  } finally {
    await client.end().catch(() => {});
  }
}

export const postgresAvailable = await reachable(POSTGRES_URL);
if (!postgresAvailable && process.env.WARDEN_TEST_REQUIRE_POSTGRES === '1')
  // CI has PostgreSQL: a run that silently tested SQLite alone would pass without testing half the store.
  throw new Error(`PostgreSQL is not reachable at ${POSTGRES_URL}, and WARDEN_TEST_REQUIRE_POSTGRES=1 requires it`);
if (!postgresAvailable)
  console.warn(`\n  ⚠ PostgreSQL is not reachable at ${POSTGRES_URL}: the PostgreSQL storage tests are SKIPPED (SQLite ones still run).\n`);

export interface OpenedStore {
  store: Store;
  /** Environment that points a child process (the CLI) at the same database. */
  env: Record<string, string>;
  cleanup(): Promise<void>;
}

export interface DialectCase {
  name: 'sqlite' | 'postgres';
  available: boolean;
  /** A fresh, empty store; `migrate: false` leaves the schema empty. */
  open(options?: { migrate?: boolean }): Promise<OpenedStore>;
}

export const dialects: DialectCase[] = [
  {
    name: 'sqlite',
    available: true,
    async open({ migrate = true } = {}) {
      const dataDir = mkdtempSync(join(tmpdir(), 'warden-test-'));
      const store = await openStore({ dataDir });
      if (migrate) await store.migrate();
      return {
        store,
        env: { WARDEN_DATA_DIR: dataDir, DATABASE_URL: '' },
        async cleanup() {
          await store.close().catch(() => {});
          rmSync(dataDir, { recursive: true, force: true });
        },
      };
    },
  },
  {
    name: 'postgres',
    available: postgresAvailable,
    async open({ migrate = true } = {}) {
      const schema = `t_${process.pid}_${Math.random().toString(36).slice(2, 10)}`;
      const store = await openStore({ dataDir: '.', databaseUrl: POSTGRES_URL, databaseSchema: schema });
      if (migrate) await store.migrate();
      return {
        store,
        env: { DATABASE_URL: POSTGRES_URL, DATABASE_SCHEMA: schema },
        async cleanup() {
          await store.close().catch(() => {});
          const client = new pg.Client({ connectionString: POSTGRES_URL });
          await client.connect();
          await client.query(`drop schema if exists "${schema}" cascade`);
          await client.end();
        },
      };
    },
  },
];
