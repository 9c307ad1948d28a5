import { copyFileSync, existsSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import SqliteDatabase from 'better-sqlite3';
import { Kysely, SqliteDialect } from 'kysely';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { seed } from '../../../../test/seed.js';
import { LATEST_MIGRATION, MIGRATION_NAMES, MIGRATIONS } from '../../migrate.js';
import { openStore } from '../../open-store.js';
import type { Store } from '../../store.js';
import { SQLITE_FILE } from './connect.js';
import { backupSqliteDatabase, inspectSqliteFile, restoreSqliteDatabase } from './files.js';

const DRIVER = createRequire(import.meta.url).resolve('better-sqlite3');
const PREFILLED = 30_000;
const CHECK_JOURNAL = '0009-check-journal';

/**
 * Another connection, on another thread, committing one check at a time (checked_at 1, 2, 3, …) until told to stop:
 * a copy taken meanwhile is consistent when it holds exactly the checks 1..N for some N.
 */
const WRITER = `
const { workerData, parentPort } = require('node:worker_threads');
const Database = require(workerData.driver);
const db = new Database(workerData.file, { timeout: 10000 });
db.pragma('synchronous = NORMAL');
const insert = db.prepare("insert into checks (monitor_id, checked_at, ok, latency_ms, source) values (?, ?, 1, 5, 'edge')");
const state = new Int32Array(workerData.state);
let n = workerData.from;
while (Atomics.load(state, 1) === 0) { insert.run(workerData.monitorId, ++n); Atomics.store(state, 0, n); }
db.close();
parentPort.postMessage(n);
`;

describe('backing up and restoring the SQLite database', () => {
  let dir: string;
  let store: Store;
  let monitorId: string;

  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), 'warden-backup-'));
    store = await openStore({ dataDir: join(dir, 'data') });
    await store.migrate();
    const { monitors } = await seed(
      store,
      'organization: { key: acme, name: Acme }\nmonitors: [{ key: web, name: Web, type: tcp, config: { host: example.com, port: 80 } }]',
    );
    monitorId = monitors.web?.id as string;
    const database = new SqliteDatabase(join(dir, 'data', SQLITE_FILE));
    // No checkpoint from here: the database file keeps lacking what the WAL holds, whatever size the migrations make it.
    database.pragma('wal_autocheckpoint = 0');
    const insert = database.prepare(
      "insert into checks (monitor_id, checked_at, ok, latency_ms, source) values (?, ?, 1, 5, 'edge')",
    );
    database.transaction(() => {
      for (let at = 1; at <= PREFILLED; at++) insert.run(monitorId, at);
    })();
    database.close();
  });
  afterEach(async () => {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('copies a consistent snapshot while another connection keeps writing, and restores it into an empty data dir', async () => {
    const state = new Int32Array(new SharedArrayBuffer(8));
    const writer = new Worker(WRITER, {
      eval: true,
      workerData: {
        driver: DRIVER,
        file: join(dir, 'data', SQLITE_FILE),
        monitorId,
        from: PREFILLED,
        state: state.buffer,
      },
    });
    const finished = new Promise<number>((resolve, reject) => {
      writer.once('message', resolve);
      writer.once('error', reject);
    });
    while (Atomics.load(state, 0) < PREFILLED + 20) await new Promise((resolve) => setTimeout(resolve, 5));

    const before = Atomics.load(state, 0);
    const backup = await backupSqliteDatabase(join(dir, 'data'), join(dir, 'warden-backup.db'));
    const after = Atomics.load(state, 0);
    Atomics.store(state, 1, 1);
    const written = await finished;

    expect(after).toBeGreaterThan(before);
    expect(backup).toMatchObject({
      file: join(dir, 'warden-backup.db'),
      schema: LATEST_MIGRATION,
      organizations: 1,
      monitors: 1,
    });
    expect(backup.checks).toBeGreaterThanOrEqual(before);
    expect(backup.checks).toBeLessThanOrEqual(after);
    // One self-contained file: nothing beside it (the backup API's copy has no write-ahead log to carry along).
    expect(readdirSync(dir).sort()).toEqual(['data', 'warden-backup.db']);
    // Readable by its owner alone: it holds every secret the database holds.
    expect(statSync(join(dir, 'warden-backup.db')).mode & 0o777).toBe(0o600);

    const restoredDir = join(dir, 'restored');
    const restored = await restoreSqliteDatabase(join(dir, 'warden-backup.db'), restoredDir);
    expect(restored).toMatchObject({ file: join(restoredDir, SQLITE_FILE), checks: backup.checks, migrated: [] });
    const copy = await openStore({ dataDir: restoredDir });
    try {
      const [organization] = await copy.organizations.list();
      expect(organization?.key).toBe('acme');
      const checks = await copy.checks.list(monitorId, { from: 0, to: Number.MAX_SAFE_INTEGER, limit: written + 1 });
      // Exactly the checks 1..N: a prefix of what the writer committed, none half there, none missing.
      expect(checks.length).toBe(backup.checks);
      expect(checks[0]?.checkedAt).toBe(checks.length);
      expect(checks.at(-1)?.checkedAt).toBe(1);
      expect(new Set(checks.map((c) => c.checkedAt)).size).toBe(checks.length);
    } finally {
      await copy.close();
    }
    expect(written).toBeGreaterThanOrEqual(after);
  });

  it('restores a database copied with its write-ahead log, folding the log in, and migrates an older schema', async () => {
    // The live files as a file-level copy takes them, the newest commits still in the -wal beside the database.
    const live = join(dir, 'data', SQLITE_FILE);
    const database = new SqliteDatabase(live);
    database.pragma('wal_autocheckpoint = 0');
    database
      .prepare("insert into checks (monitor_id, checked_at, ok, latency_ms, source) values (?, ?, 1, 5, 'edge')")
      .run(monitorId, PREFILLED + 1);
    // As an older version left it: the migrations from 0009 (the check journal) on not run yet.
    const older = new Kysely<unknown>({ dialect: new SqliteDialect({ database }) });
    const notRun = MIGRATION_NAMES.filter((name) => name >= CHECK_JOURNAL);
    for (const name of [...notRun].reverse()) {
      await MIGRATIONS[name]?.down?.(older as never);
      database.prepare('delete from warden_migrations where name = ?').run(name);
    }
    const snapshot = join(dir, 'snapshot.db');
    copyFileSync(live, snapshot);
    copyFileSync(`${live}-wal`, `${snapshot}-wal`);
    await older.destroy();
    // Not yet checkpointed, the database file alone lacks even the tables.
    copyFileSync(snapshot, join(dir, 'without-wal.db'));
    expect(() => inspectSqliteFile(join(dir, 'without-wal.db'))).toThrow(/no warden_migrations table/);

    const restored = await restoreSqliteDatabase(snapshot, join(dir, 'restored'));
    expect(restored.checks).toBe(PREFILLED + 1);
    expect(restored.migrated).toEqual(notRun);
    expect(inspectSqliteFile(join(dir, 'restored', SQLITE_FILE)).schema).toBe(LATEST_MIGRATION);
  });

  it('refuses to overwrite a file, to replace a database, and to restore what is not a Warden database', async () => {
    const data = join(dir, 'data');
    writeFileSync(join(dir, 'taken.db'), 'precious');
    await expect(backupSqliteDatabase(data, join(dir, 'taken.db'))).rejects.toThrow(
      /taken\.db exists: give --force to replace it/,
    );
    await expect(backupSqliteDatabase(data, join(data, SQLITE_FILE), { force: true })).rejects.toThrow(
      /is the live database itself/,
    );
    await expect(backupSqliteDatabase(join(dir, 'nowhere'), join(dir, 'x.db'))).rejects.toThrow(
      /there is no database to back up/,
    );
    expect(existsSync(join(dir, 'nowhere'))).toBe(false);

    const copy = await backupSqliteDatabase(data, join(dir, 'taken.db'), { force: true });
    expect(copy.monitors).toBe(1);
    await expect(restoreSqliteDatabase(copy.file, data)).rejects.toThrow(
      /warden\.db exists: restore into an empty data dir/,
    );

    writeFileSync(join(dir, 'notes.txt'), 'not a database at all');
    await expect(restoreSqliteDatabase(join(dir, 'notes.txt'), join(dir, 'empty'))).rejects.toThrow(
      /notes\.txt is not a SQLite database/,
    );
    const other = new SqliteDatabase(join(dir, 'other.db'));
    other.exec('create table t (x)');
    other.close();
    await expect(restoreSqliteDatabase(join(dir, 'other.db'), join(dir, 'empty'))).rejects.toThrow(
      /not Warden's: it has no warden_migrations table/,
    );
    expect(readdirSync(join(dir, 'empty'))).toEqual([]);
  });
});
