// A transaction on the SQLite file while another process writes to it: it waits its turn, it does not fail.
import { mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { type Kysely, Migrator, sql } from 'kysely';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { seed } from '../../../../test/seed.js';
import { openStore } from '../../open-store.js';
import type { Store } from '../../store.js';
import { connectSqlite, SQLITE_FILE } from './connect.js';

const DRIVER = createRequire(import.meta.url).resolve('better-sqlite3');

/**
 * Another connection on another thread, as a second server or the CLI would be: told to, it moves the change counter
 * in a transaction of its own, waiting up to 10 s for the write lock, and says when that is committed.
 */
const OTHER_PROCESS = `
const { workerData, parentPort } = require('node:worker_threads');
const Database = require(workerData.driver);
const db = new Database(workerData.file, { timeout: 10000 });
parentPort.on('message', () => {
  db.prepare('update change_counter set version = version + 1 where id = 1').run();
  parentPort.postMessage('committed');
  db.close();
});
`;

describe('SQLite transactions beside another process', () => {
  let dir: string;
  let store: Store;
  let monitorId: string;
  let other: Worker;

  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), 'warden-sqlite-tx-'));
    store = await openStore({ dataDir: dir });
    await store.migrate();
    const { monitors } = await seed(
      store,
      'organization: { key: acme, name: Acme }\nmonitors: [{ key: backup, name: Backup, type: heartbeat }]',
    );
    monitorId = monitors.backup?.id as string;
    other = new Worker(OTHER_PROCESS, { eval: true, workerData: { driver: DRIVER, file: join(dir, SQLITE_FILE) } });
  });
  afterEach(async () => {
    await other.terminate();
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('a transaction that reads, then writes, commits though the other process wrote in between', async () => {
    const before = await store.changes.current();
    const committed = new Promise<number>((resolve) => other.once('message', () => resolve(performance.now())));
    let wrote = 0;
    // What rotating a push token does: read the monitor, then set its token; the other process writes meanwhile.
    await store.transaction(async (tx) => {
      expect(await tx.monitors.findById(monitorId)).not.toBeNull();
      other.postMessage('write');
      // Long enough for the other's write to commit, had this transaction not held the write lock from its start.
      await Promise.race([committed, new Promise((resolve) => setTimeout(resolve, 300))]);
      await tx.monitors.setPushToken(monitorId, { hash: 'a'.repeat(64), prefix: 'wdp_aaaa' }, 1);
      wrote = performance.now();
    });
    // Both writes are there, the other's after this one: it waited for the lock instead of either failing.
    expect(await committed).toBeGreaterThan(wrote);
    expect(await store.changes.current()).toBe(before + 1);
    expect(await store.monitors.pushTokenHash(monitorId)).toBe('a'.repeat(64));
  });

  it('runs pending migrations in one transaction: one that fails leaves nothing of those before it', async () => {
    const connection = connectSqlite(join(dir, 'other'), 'full');
    const tables = async () =>
      (
        await sql<{
          name: string;
        }>`select name from sqlite_master where type = 'table' and name like 'trial_%'`.execute(connection.db)
      ).rows.map((row) => row.name);
    const migrator = (failing: boolean) =>
      new Migrator({
        db: connection.db,
        provider: {
          getMigrations: async () => ({
            '0001-first': {
              up: async (db: Kysely<unknown>) => {
                await db.schema.createTable('trial_first').addColumn('id', 'integer').execute();
              },
            },
            '0002-second': {
              up: async (db: Kysely<unknown>) => {
                await db.schema.createTable('trial_second').addColumn('id', 'integer').execute();
                if (failing) throw new Error('the second migration fails halfway');
              },
            },
          }),
        },
      });
    try {
      expect((await migrator(true).migrateToLatest()).error).toBeInstanceOf(Error);
      // Before, each migration committed statement by statement: the first table stayed, and half of the second.
      expect(await tables()).toEqual([]);
      expect((await migrator(false).migrateToLatest()).error).toBeUndefined();
      expect((await tables()).sort()).toEqual(['trial_first', 'trial_second']);
    } finally {
      await connection.db.destroy();
      connection.closeFile?.();
    }
  });
});
