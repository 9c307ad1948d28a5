// A fresh, empty database per dialect for the migration tests of src/store: a temp dir for SQLite, a schema of its own
// on PostgreSQL (dropped on close), each closed after its test.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { afterEach } from 'vitest';
import type { DialectConnection } from '../src/store/dialects/connection.js';
import { connectPostgres } from '../src/store/dialects/postgres/connect.js';
import { connectSqlite } from '../src/store/dialects/sqlite/connect.js';
import { migrateToLatest } from '../src/store/migrate.js';
import { POSTGRES_URL, postgresAvailable } from './store-dialects.js';

interface OpenedConnection {
  connection: DialectConnection;
  close(): Promise<void>;
}

export interface MigrationDialect {
  name: 'sqlite' | 'postgres';
  available: boolean;
  open(): Promise<OpenedConnection>;
}

export const migrationDialects: MigrationDialect[] = [
  {
    name: 'sqlite',
    available: true,
    async open(): Promise<OpenedConnection> {
      const dir = mkdtempSync(join(tmpdir(), 'warden-migrate-'));
      const connection = connectSqlite(dir, 'normal');
      return {
        connection,
        async close() {
          await connection.db.destroy();
          rmSync(dir, { recursive: true, force: true });
        },
      };
    },
  },
  {
    name: 'postgres',
    available: postgresAvailable,
    async open(): Promise<OpenedConnection> {
      const schema = `m_${process.pid}_${Math.random().toString(36).slice(2, 10)}`;
      const connection = await connectPostgres(POSTGRES_URL, schema);
      return {
        connection,
        async close() {
          await sql`drop schema if exists ${sql.id(schema)} cascade`.execute(connection.db);
          await connection.db.destroy();
        },
      };
    },
  },
];

/**
 * Called inside a dialect's describe: `open` gives an empty database, closed after the test; `migrate` runs every
 * migration it lacks.
 */
export function migrationConnections(dialect: MigrationDialect) {
  const opened: OpenedConnection[] = [];
  const open = async () => {
    const one = await dialect.open();
    opened.push(one);
    return one.connection;
  };
  const migrate = async (connection: DialectConnection) =>
    migrateToLatest(connection.db, await connection.migrationSchema());
  afterEach(async () => {
    for (const one of opened.splice(0)) await one.close();
  });
  return { open, migrate };
}
