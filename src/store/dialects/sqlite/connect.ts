// Opens the embedded SQLite database (better-sqlite3): WAL, durable commits, foreign keys, and prepared statements reused.
import { existsSync, mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import SqliteDatabase from 'better-sqlite3';
import {
  CompiledQuery,
  type DatabaseConnection,
  type DialectAdapter,
  type Driver,
  Kysely,
  SqliteAdapter,
  SqliteDialect,
  SqliteDriver,
} from 'kysely';
import type { Database } from '../../tables.js';
import { type DialectConnection, NoDatabaseError } from '../connection.js';
import { storageFaults } from '../faults.js';
import { sqliteCheckWriter } from './check-writer.js';
import { sqliteDeliveryClaimer } from './delivery-claimer.js';
import { sqliteFault } from './faults.js';
import { sqliteStateCache } from './state-cache.js';

export const SQLITE_FILE = 'warden.db';
/** Pages written to the log before they are copied back into the database file (4 KiB each). */
export const WAL_CHECKPOINT_PAGES = 10_000;
/** Prepared statements kept for reuse, by SQL text; the least recently used goes first. */
const STATEMENT_CACHE_SIZE = 500;

/**
 * `sync`, SQLite's `synchronous` in WAL mode: `full` syncs the log on every commit, so a 200 survives a power loss;
 * `normal` syncs at checkpoints only, surviving a crash of Warden but not of the machine, for more commits/s.
 * `create: false`: a missing file is a NoDatabaseError, and neither it nor its folder is created.
 */
export function connectSqlite(dataDir: string, sync: 'full' | 'normal', { create = true } = {}): DialectConnection {
  const dir = resolve(dataDir);
  const file = join(dir, SQLITE_FILE);
  if (!create && !existsSync(file)) throw new NoDatabaseError(`sqlite:${file}`);
  if (create) mkdirSync(dir, { recursive: true });
  const database = new SqliteDatabase(file, { fileMustExist: !create });
  database.pragma('journal_mode = WAL');
  // FULL makes every commit durable before we answer 200; group commits keep this fast.
  database.pragma(sync === 'normal' ? 'synchronous = NORMAL' : 'synchronous = FULL');
  database.pragma('foreign_keys = ON');
  // The log is copied back into the database every WAL_CHECKPOINT_PAGES pages instead of SQLite's 1,000: a busy page
  // (an index leaf that every commit touches) is then copied once for many commits, not once for a few, which saves
  // a tenth of the time of a commit of heartbeats. The log grows to ~40 MB between copies, and is reused after each.
  database.pragma(`wal_autocheckpoint = ${WAL_CHECKPOINT_PAGES}`);
  // The CLI and the server share the file; wait for each other's short write locks instead of failing.
  database.pragma('busy_timeout = 5000');
  const statements = withStatementCache(database);
  const faults = storageFaults(sqliteFault);
  const db = new Kysely<Database>({ dialect: faults.dialect(new ImmediateSqliteDialect({ database: statements })) });
  const checks = sqliteCheckWriter(db, database);
  return {
    dialect: 'sqlite',
    db,
    location: `sqlite:${file}`,
    writeChecks: checks.write,
    checkJournal: checks.journal,
    stateCache: sqliteStateCache(database, statements.writes),
    claimDeliveries: sqliteDeliveryClaimer,
    locksRows: false,
    isUniqueViolation: (error) => {
      const code = (error as { code?: unknown } | null)?.code;
      return code === 'SQLITE_CONSTRAINT_UNIQUE' || code === 'SQLITE_CONSTRAINT_PRIMARYKEY';
    },
    faults,
    migrationSchema: async () => undefined,
    poolUse: () => null,
    closeFile: () => {
      if (database.open) database.close();
    },
  };
}

/**
 * Every transaction begins IMMEDIATE: it takes the database's write lock at its start, waiting for it (busy_timeout)
 * while another process holds it. A DEFERRED one (SQLite's default, and Kysely's) that read first and then wrote
 * failed at once with SQLITE_BUSY, without waiting, whenever another process (a second server, the CLI) had committed
 * since its read: its snapshot can no longer become a write. Rotating a push token while the other server stored
 * heartbeats answered 503 that way. Readers are never blocked (WAL); in one process nothing changes, the one
 * connection runs one transaction at a time anyway.
 */
class ImmediateSqliteDialect extends SqliteDialect {
  readonly #config: ConstructorParameters<typeof SqliteDialect>[0];
  constructor(config: ConstructorParameters<typeof SqliteDialect>[0]) {
    super(config);
    this.#config = config;
  }
  override createDriver(): Driver {
    return new ImmediateSqliteDriver(this.#config);
  }
  override createAdapter(): DialectAdapter {
    return new TransactionalDdlAdapter();
  }
}

/**
 * SQLite runs DDL in transactions; Kysely's adapter says it does not, so its migrator ran each migration's statements
 * outside one: every statement a commit and a sync (209 fsync calls to migrate an empty data dir, 13 now). Said true,
 * the pending migrations run in one transaction, and a migration that fails leaves nothing half done.
 */
class TransactionalDdlAdapter extends SqliteAdapter {
  override get supportsTransactionalDdl(): boolean {
    return true;
  }
}

class ImmediateSqliteDriver extends SqliteDriver {
  override async beginTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw('begin immediate'));
  }
}

/** Statements that write nothing themselves: a transaction's start and end (a rollback undoes writes: it counts). */
const TRANSACTION_CONTROL = /^\s*(begin|commit|end|savepoint|release)\b/i;

/**
 * Kysely prepares every query anew; preparing costs about a tenth of the CPU of a hot query on SQLite, so the
 * database handed to Kysely reuses statements by SQL text. Safe because Warden never streams (.iterate) results.
 * Kysely prepares a statement for each run, so `writes` counts the statements run that may write (all but reads and
 * begin/commit): the monitor state cache (state-cache.ts) knows by it whether anything but the ingest's own check
 * writer, which prepares its statements itself, has written since it last looked.
 */
function withStatementCache(database: SqliteDatabase.Database): {
  close(): void;
  prepare(sql: string): SqliteDatabase.Statement;
  writes(): number;
} {
  const statements = new Map<string, { statement: SqliteDatabase.Statement; writes: boolean }>();
  let writes = 0;
  return {
    close: () => database.close(),
    prepare(sql: string) {
      let entry = statements.get(sql);
      if (entry) {
        statements.delete(sql);
      } else {
        const statement = database.prepare(sql);
        entry = { statement, writes: !statement.reader && !TRANSACTION_CONTROL.test(sql) };
        if (statements.size >= STATEMENT_CACHE_SIZE) statements.delete(statements.keys().next().value as string);
      }
      statements.set(sql, entry);
      if (entry.writes) writes++;
      return entry.statement;
    },
    writes: () => writes,
  };
}
