// Opens the store: embedded SQLite by default, PostgreSQL when DATABASE_URL says so. The only dialect-aware file besides migrations.
import { mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import SqliteDatabase from 'better-sqlite3';
import { Kysely, PostgresDialect, SqliteDialect, sql } from 'kysely';
import type { Database } from './tables.js';

export type Dialect = 'sqlite' | 'postgres';

export interface StoreOptions {
  /** postgres://… selects PostgreSQL; anything else (or nothing) selects SQLite under dataDir. */
  databaseUrl?: string | undefined;
  /** PostgreSQL schema to use (created when missing); lets tests and tenants share one database. */
  databaseSchema?: string | undefined;
  dataDir: string;
  /**
   * SQLite's `synchronous` in WAL mode: `full` (the default) syncs the log on every commit, so a 200 survives a power
   * loss; `normal` syncs at checkpoints only, surviving a crash of Warden but not of the machine, for more commits/s.
   */
  sqliteSync?: 'full' | 'normal' | undefined;
}

export interface Store {
  db: Kysely<Database>;
  dialect: Dialect;
  /** Human description for logs, without credentials. */
  location: string;
  ping(): Promise<void>;
  close(): Promise<void>;
}

export type Db = Kysely<Database>;
export type SqliteStatement = SqliteDatabase.Statement;

/** The better-sqlite3 handle behind a SQLite store's Kysely instance. */
const handles = new WeakMap<object, SqliteDatabase.Database>();

/**
 * The raw SQLite connection of a store's Kysely instance, for the few hot writes that run prepared statements
 * directly; undefined on PostgreSQL (and for a transaction object). SQLite has one connection, so statements run on
 * it inside a Kysely transaction are part of that transaction.
 */
export function sqliteHandle(db: Db): SqliteDatabase.Database | undefined {
  return handles.get(db);
}

const POSTGRES_POOL_SIZE = 10;
const SQLITE_FILE = 'warden.db';

export async function connectStore(options: StoreOptions): Promise<Store> {
  const url = options.databaseUrl;
  if (url && /^postgres(ql)?:\/\//.test(url)) return connectPostgres(url, options.databaseSchema);
  return connectSqlite(options.dataDir, options.sqliteSync ?? 'full');
}

function connectSqlite(dataDir: string, sync: 'full' | 'normal'): Store {
  const dir = resolve(dataDir);
  mkdirSync(dir, { recursive: true });
  const file = join(dir, SQLITE_FILE);
  const database = new SqliteDatabase(file);
  database.pragma('journal_mode = WAL');
  // FULL makes every commit durable before we answer 200; group commits keep this fast.
  database.pragma(sync === 'normal' ? 'synchronous = NORMAL' : 'synchronous = FULL');
  database.pragma('foreign_keys = ON');
  // The CLI and the server share the file; wait for each other's short write locks instead of failing.
  database.pragma('busy_timeout = 5000');
  const db = new Kysely<Database>({ dialect: new SqliteDialect({ database: withStatementCache(database) }) });
  handles.set(db, database);
  return {
    db,
    dialect: 'sqlite',
    location: `sqlite:${file}`,
    ping: async () => {
      await sql`select 1`.execute(db);
    },
    close: () => db.destroy(),
  };
}

/** Prepared statements kept for reuse, by SQL text; the least recently used goes first. */
const STATEMENT_CACHE_SIZE = 500;

/**
 * Kysely prepares every query anew; preparing costs about a tenth of the CPU of a hot query on SQLite, so the
 * database handed to Kysely reuses statements by SQL text. Safe because Warden never streams (.iterate) results.
 */
function withStatementCache(database: SqliteDatabase.Database): { close(): void; prepare(sql: string): SqliteDatabase.Statement } {
  const statements = new Map<string, SqliteDatabase.Statement>();
  return {
    close: () => database.close(),
    prepare(sql: string) {
      let statement = statements.get(sql);
      if (statement) {
        statements.delete(sql);
      } else {
        statement = database.prepare(sql);
        if (statements.size >= STATEMENT_CACHE_SIZE) statements.delete(statements.keys().next().value as string);
      }
      statements.set(sql, statement);
      return statement;
    },
  };
}

async function connectPostgres(url: string, schema: string | undefined): Promise<Store> {
  // Loaded only here: a SQLite server never carries the driver in its heap.
  const { default: pg } = await import('pg');
  const types = {
    getTypeParser: (oid: number, format?: string) => {
      // int8 (epoch ms, counts) and numeric (averages) as JS numbers: all our values fit in 2^53.
      if (oid === 20 || oid === 1700) return (value: string) => Number(value);
      return pg.types.getTypeParser(oid, format as 'text');
    },
  };
  if (schema !== undefined && !/^[a-z_][a-z0-9_]{0,62}$/.test(schema))
    throw new Error(`invalid PostgreSQL schema name: ${schema}`);
  if (schema) {
    const setup = new pg.Client({ connectionString: url });
    await setup.connect();
    try {
      await setup.query(`create schema if not exists "${schema}"`);
    } finally {
      await setup.end();
    }
  }
  const pool = new pg.Pool({
    connectionString: url,
    max: POSTGRES_POOL_SIZE,
    types,
    ...(schema ? { options: `-c search_path="${schema}"` } : {}),
  });
  const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
  const parsed = new URL(url);
  return {
    db,
    dialect: 'postgres',
    location: `postgres://${parsed.host}${parsed.pathname}${schema ? ` (schema ${schema})` : ''}`,
    ping: async () => {
      await sql`select 1`.execute(db);
    },
    close: () => db.destroy(),
  };
}

/** Whether a write failed on a unique constraint (SQLite or PostgreSQL), e.g. two requests creating the same key at once. */
export function isUniqueViolation(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return code === 'SQLITE_CONSTRAINT_UNIQUE' || code === 'SQLITE_CONSTRAINT_PRIMARYKEY' || code === '23505';
}
