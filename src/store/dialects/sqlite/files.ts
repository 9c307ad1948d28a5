// SQLite database files outside a running store: `warden backup` copies the live database with SQLite's online backup
// API (a consistent snapshot while the server keeps writing) and checks the copy; `warden restore` installs such a copy
// into an empty data dir and migrates it.
import {
  chmodSync,
  closeSync,
  copyFileSync,
  existsSync,
  linkSync,
  mkdirSync,
  mkdtempSync,
  openSync,
  readSync,
  realpathSync,
  renameSync,
  rmSync,
  statSync,
} from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import SqliteDatabase from 'better-sqlite3';
import { MIGRATION_NAMES, migrateToLatest } from '../../migrate.js';
import { connectSqlite, SQLITE_FILE } from './connect.js';

/** What a verified database file holds. */
export interface SqliteFileReport {
  file: string;
  bytes: number;
  /** The newest migration the file had (before a restore migrated it). */
  schema: string | null;
  organizations: number;
  monitors: number;
  checks: number;
}

export interface RestoreReport extends SqliteFileReport {
  /** Migrations run on the restored copy to bring it to this version's schema. */
  migrated: string[];
}

/**
 * Pages copied per step after the first: all of them. Each step reads under one read transaction (writers in WAL mode
 * go on meanwhile); a write by another connection between two steps restarts the copy, so one big step finishes even
 * under a busy writer, where steps of 100 pages could restart for as long as the server writes.
 */
const ALL_PAGES = 0x7fffffff;
/** The first bytes of every SQLite 3 database file. */
const SQLITE_MAGIC = 'SQLite format 3\u0000';

/** Copies the data dir's database to `target` while others may write to it, then verifies the copy. */
export async function backupSqliteDatabase(
  dataDir: string,
  target: string,
  { force = false } = {},
): Promise<SqliteFileReport> {
  const source = join(resolve(dataDir), SQLITE_FILE);
  if (!existsSync(source)) throw new Error(`there is no database to back up at ${source} (WARDEN_DATA_DIR)`);
  const destination = resolve(target);
  if (!existsSync(dirname(destination))) throw new Error(`the folder of ${target} does not exist`);
  const live = realpathSync(source);
  if ([live, `${live}-wal`, `${live}-shm`].includes(join(realpathSync(dirname(destination)), basename(destination))))
    throw new Error(`${target} is the live database itself: back it up to another file`);
  if (existsSync(destination) && !force) throw new Error(`${target} exists: give --force to replace it`);

  // Written beside the target and moved into place once verified: a failed backup never leaves a half file at FILE,
  // nor replaces a good one.
  const partial = join(dirname(destination), `.${basename(destination)}.partial-${process.pid}`);
  removeDatabaseFiles(partial);
  try {
    const database = new SqliteDatabase(source, { readonly: true, fileMustExist: true, timeout: 5000 });
    try {
      await database.backup(partial, { progress: () => ALL_PAGES });
    } finally {
      database.close();
    }
    selfContained(partial);
    // It holds what the database holds: monitor and channel secrets in full, token and password hashes.
    chmodSync(partial, 0o600);
    const report = inspectSqliteFile(partial);
    if (force) renameSync(partial, destination);
    else placeWithoutReplacing(partial, destination, `${target} appeared meanwhile: give --force to replace it`);
    return { ...report, file: destination };
  } finally {
    removeDatabaseFiles(partial);
  }
}

/**
 * Installs the backup `file` as the data dir's database, which must not exist yet, migrated to this version's schema.
 * The file is only read: it is copied (with its -wal, if it has one), and the copy checked and migrated in a folder of
 * its own before it takes its place, so a refused or failed restore leaves the data dir as it was.
 */
export async function restoreSqliteDatabase(file: string, dataDir: string): Promise<RestoreReport> {
  const dir = resolve(dataDir);
  const target = join(dir, SQLITE_FILE);
  for (const existing of [target, `${target}-wal`])
    if (existsSync(existing))
      throw new Error(
        `${existing} exists: restore into an empty data dir (WARDEN_DATA_DIR), or move that database away first; restore never replaces one`,
      );
  if (!existsSync(file)) throw new Error(`${file} does not exist`);
  if (!hasSqliteHeader(file)) throw new Error(`${file} is not a SQLite database`);

  mkdirSync(dir, { recursive: true });
  const work = mkdtempSync(join(dir, '.restoring-'));
  const copy = join(work, SQLITE_FILE);
  try {
    copyFileSync(file, copy);
    if (existsSync(`${file}-wal`)) copyFileSync(`${file}-wal`, `${copy}-wal`);
    try {
      selfContained(copy);
    } catch (error) {
      throw new Error(`${file} cannot be read as a database: ${(error as Error).message}`);
    }
    const report = inspectSqliteFile(copy);
    const unknown = migrationNames(copy).filter((name) => !MIGRATION_NAMES.includes(name));
    if (unknown.length > 0)
      throw new Error(
        `${file} was written by a newer Warden (migrations ${unknown.join(', ')}): restore it with that version or a later one`,
      );
    const connection = connectSqlite(work, 'full');
    let migrated: string[];
    try {
      migrated = (await migrateToLatest(connection.db, undefined)).applied;
    } finally {
      await connection.db.destroy();
    }
    selfContained(copy);
    placeWithoutReplacing(copy, target, `${target} appeared meanwhile: restore never replaces a database`);
    return { ...report, file: target, migrated };
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

/**
 * Opens a database file read-only and checks it: a SQLite database, with Warden's migrations table, that passes
 * `PRAGMA integrity_check`; reports its size and what it holds. Throws a message naming the problem otherwise.
 */
export function inspectSqliteFile(file: string): SqliteFileReport {
  let database: SqliteDatabase.Database;
  let tables: Set<string>;
  try {
    database = new SqliteDatabase(file, { readonly: true, fileMustExist: true });
    tables = new Set(
      database
        .prepare<[], { name: string }>("select name from sqlite_master where type = 'table'")
        .all()
        .map((t) => t.name),
    );
  } catch (error) {
    throw new Error(`${file} is not a SQLite database (${(error as Error).message})`);
  }
  try {
    if (!tables.has('warden_migrations'))
      throw new Error(`${file} is a SQLite database but not Warden's: it has no warden_migrations table`);
    const problems = database
      .prepare<[], { integrity_check: string }>('pragma integrity_check(20)')
      .all()
      .map((row) => row.integrity_check);
    if (problems.join() !== 'ok')
      throw new Error(`${file} fails SQLite's integrity check:\n  ${problems.join('\n  ')}`);
    const count = (table: string) =>
      tables.has(table) ? (database.prepare<[], { n: number }>(`select count(*) as n from ${table}`).get()?.n ?? 0) : 0;
    const schema =
      database.prepare<[], { name: string | null }>('select max(name) as name from warden_migrations').get()?.name ??
      null;
    return {
      file,
      bytes: statSync(file).size,
      schema,
      organizations: count('organizations'),
      monitors: count('monitors'),
      checks: count('checks') + count('check_journal'),
    };
  } finally {
    database.close();
  }
}

function migrationNames(file: string): string[] {
  const database = new SqliteDatabase(file, { readonly: true, fileMustExist: true });
  try {
    return database
      .prepare<[], { name: string }>('select name from warden_migrations')
      .all()
      .map((row) => row.name);
  } finally {
    database.close();
  }
}

/**
 * Folds the file's write-ahead log into it and leaves it in rollback-journal mode: one file that opens read-only
 * without creating -wal and -shm beside it. (The server turns WAL back on when it opens the restored database.)
 */
function selfContained(file: string): void {
  const database = new SqliteDatabase(file, { fileMustExist: true });
  try {
    database.pragma('journal_mode = DELETE');
  } finally {
    database.close();
  }
}

function hasSqliteHeader(file: string): boolean {
  const fd = openSync(file, 'r');
  try {
    const header = Buffer.alloc(SQLITE_MAGIC.length);
    return readSync(fd, header, 0, header.length, 0) === header.length && header.toString('latin1') === SQLITE_MAGIC;
  } finally {
    closeSync(fd);
  }
}

/** Moves `from` to `to` unless `to` exists, atomically where the file system has hard links. */
function placeWithoutReplacing(from: string, to: string, exists: string): void {
  try {
    linkSync(from, to);
    rmSync(from);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'EEXIST') throw new Error(exists);
    if (code !== 'EPERM' && code !== 'ENOTSUP' && code !== 'EXDEV' && code !== 'ENOSYS') throw error;
    if (existsSync(to)) throw new Error(exists);
    renameSync(from, to);
  }
}

function removeDatabaseFiles(file: string): void {
  for (const suffix of ['', '-wal', '-shm', '-journal']) rmSync(`${file}${suffix}`, { force: true });
}
