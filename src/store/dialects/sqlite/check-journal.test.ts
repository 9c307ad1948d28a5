// SQLite's check journal: commits land in it, every read of history folds it first, a timer folds it when nothing
// reads, a crash leaves it for the next process, and what it folds equals what a direct write stores.
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import SqliteDatabase from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { addMonitor, addOrganization, check, NOW, stateRow } from '../../../../test/contracts/store-fixtures.js';
import { dialects, type OpenedStore } from '../../../../test/store-dialects.js';
import { type CheckRow, DAY_MS, HOUR_MS } from '../../../domain/check.js';
import { openStore } from '../../open-store.js';
import type { Store } from '../../store.js';
import { FOLD_INTERVAL_MS, JOURNAL_MAX_BATCH } from './check-journal.js';
import { SQLITE_FILE } from './connect.js';

const sqlite = dialects.find((d) => d.name === 'sqlite');
if (!sqlite) throw new Error('the sqlite dialect is always there');
const EVERYTHING = { from: 0, to: NOW + 30 * DAY_MS, limit: 100_000 };

describe('the check journal on SQLite', () => {
  let opened: OpenedStore;
  let store: Store;
  let file: string;
  /** Rows in each table, read by a connection of its own as another process would. */
  const rows = () => {
    const other = new SqliteDatabase(file, { readonly: true });
    try {
      const count = (table: string) => (other.prepare(`select count(*) as n from ${table}`).get() as { n: number }).n;
      return { journal: count('check_journal'), checks: count('checks') };
    } finally {
      other.close();
    }
  };

  beforeEach(async () => {
    opened = await sqlite.open();
    store = opened.store;
    file = join(opened.env.WARDEN_DATA_DIR as string, SQLITE_FILE);
    await addOrganization(store);
    await addMonitor(store, 'a');
    await addMonitor(store, 'b');
  });
  afterEach(async () => {
    await opened.cleanup();
  });

  it('commits checks to the journal, and every read of history folds them first', async () => {
    await store.checks.write(
      [check('mon_a', NOW + 1), check('mon_a', NOW + 2), check('mon_b', NOW + 3)],
      [stateRow('mon_a', { lastCheckAt: NOW + 2 })],
    );
    expect(rows()).toEqual({ journal: 3, checks: 0 });
    // The state is written in the commit itself.
    expect((await store.monitors.findById('mon_a'))?.lastCheckAt).toBe(NOW + 2);

    expect((await store.checks.list('mon_a', EVERYTHING)).map((c) => c.checkedAt)).toEqual([NOW + 2, NOW + 1]);
    expect(rows()).toEqual({ journal: 0, checks: 3 });
    await store.checks.write([check('mon_b', NOW + 4)], []);
    expect(await store.checks.bucketCounts('hour', ['mon_a', 'mon_b'], 0, NOW + DAY_MS)).toEqual(
      expect.arrayContaining([
        { monitorId: 'mon_a', start: NOW, count: 2, upCount: 2, degradedCount: 0 },
        { monitorId: 'mon_b', start: NOW, count: 2, upCount: 2, degradedCount: 0 },
      ]),
    );
    await store.checks.write([check('mon_b', NOW + 5, { ok: false, latencyMs: null })], []);
    expect((await store.checks.buckets('day', ['mon_b'], 0, NOW + DAY_MS))[0]).toMatchObject({
      count: 3,
      upCount: 2,
      latencyAvg: 20,
    });
    expect(rows()).toEqual({ journal: 0, checks: 5 });
  });

  it('folds into the same checks and buckets as a direct write stores, many commits at a time', async () => {
    // One day of checks of two monitors with every kind of field the buckets read, in a seeded order.
    let seed = 7;
    const random = () => {
      seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648;
      return seed / 2_147_483_648;
    };
    const checks: CheckRow[] = Array.from({ length: JOURNAL_MAX_BATCH + 200 }, (_, i) =>
      check(i % 3 === 0 ? 'mon_b' : 'mon_a', NOW + Math.floor(random() * DAY_MS), {
        ok: random() > 0.1,
        degraded: random() > 0.8,
        latencyMs: random() > 0.05 ? Math.floor(random() * 3000) : null,
        data: random() > 0.5 ? { players: Math.floor(random() * 60), motd: `day ${i}` } : null,
        message: random() > 0.5 ? `message ${i}` : null,
        error: random() > 0.9 ? 'connection refused' : null,
        source: random() > 0.5 ? 'push' : 'edge',
      }),
    );
    for (let i = 0; i < checks.length; i += 50) await store.checks.write(checks.slice(i, i + 50), []);
    expect(rows().journal).toBe(checks.length);

    const direct = await sqlite.open();
    try {
      await addOrganization(direct.store);
      await addMonitor(direct.store, 'a');
      await addMonitor(direct.store, 'b');
      // An import's batch goes to `checks` directly.
      await direct.store.checks.write(checks, []);
      for (const monitor of ['mon_a', 'mon_b']) {
        const strip = (list: { id: number }[]) => list.map(({ id: _id, ...rest }) => rest);
        const theirs = strip(await direct.store.checks.list(monitor, EVERYTHING));
        expect(theirs.length).toBeGreaterThan(300);
        expect(strip(await store.checks.list(monitor, EVERYTHING))).toEqual(theirs);
      }
      for (const period of ['hour', 'day'] as const)
        expect(await store.checks.buckets(period, ['mon_a', 'mon_b'], 0, NOW + 2 * DAY_MS)).toEqual(
          await direct.store.checks.buckets(period, ['mon_a', 'mon_b'], 0, NOW + 2 * DAY_MS),
        );
    } finally {
      await direct.cleanup();
    }
    expect(rows()).toEqual({ journal: 0, checks: checks.length });
  });

  it('folds on its own about a second after a commit when nothing reads', async () => {
    await store.checks.write([check('mon_a', NOW + 1)], []);
    const since = performance.now();
    await expect.poll(() => rows().journal, { timeout: FOLD_INTERVAL_MS + 4_000, interval: 50 }).toBe(0);
    expect(performance.now() - since).toBeGreaterThan(FOLD_INTERVAL_MS / 2);
    expect(rows().checks).toBe(1);
  });

  it('stores a relay result with an id in `checks` at once, so a replay is seen', async () => {
    await store.checks.write(
      [check('mon_a', NOW + 1, { source: 'relay', resultId: 'res_1' }), check('mon_a', NOW + 2)],
      [],
    );
    expect(rows()).toEqual({ journal: 1, checks: 1 });
    expect(await store.checks.storedResultKeys([{ monitorId: 'mon_a', resultId: 'res_1' }])).toEqual(
      new Set(['mon_a\u0000res_1']),
    );
    await store.checks.write([check('mon_a', NOW + 1, { source: 'relay', resultId: 'res_1' })], []);
    expect((await store.checks.bucketCounts('hour', ['mon_a'], 0, NOW + DAY_MS))[0]?.count).toBe(2);
  });

  it('lets a deleted monitor take its journaled checks along, and folds the rest', async () => {
    await store.checks.write([check('mon_a', NOW + 1), check('mon_b', NOW + 2)], []);
    await store.monitors.delete('mon_a');
    expect(rows()).toEqual({ journal: 1, checks: 0 });
    expect((await store.checks.list('mon_b', EVERYTHING)).length).toBe(1);
    expect(await store.checks.bucketCounts('hour', ['mon_a', 'mon_b'], 0, NOW + DAY_MS)).toMatchObject([
      { monitorId: 'mon_b', count: 1 },
    ]);
  });

  it('folds what is left when the store closes', async () => {
    await store.checks.write([check('mon_a', NOW + 1), check('mon_a', NOW + 2)], []);
    await store.close();
    expect(rows()).toEqual({ journal: 0, checks: 2 });
  });

  it('keeps what a crashed process journaled, and the next one reads it', async () => {
    await store.close();
    // A process that commits two checks and dies before any fold (SIGKILL: no exit handler, no timer).
    const script = `
      import { openStore } from ${JSON.stringify(new URL('../../open-store.ts', import.meta.url).pathname)};
      const store = await openStore({ dataDir: ${JSON.stringify(opened.env.WARDEN_DATA_DIR)} });
      await store.checks.write([${JSON.stringify(check('mon_a', NOW + 1))}, ${JSON.stringify(check('mon_a', NOW + HOUR_MS, { ok: false }))}], []);
      process.kill(process.pid, 'SIGKILL');`;
    const child = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
      encoding: 'utf8',
      timeout: 30_000,
    });
    expect(child.signal, child.stderr).toBe('SIGKILL');
    expect(rows()).toEqual({ journal: 2, checks: 0 });

    const next = await openStore({ dataDir: opened.env.WARDEN_DATA_DIR as string });
    try {
      expect((await next.checks.list('mon_a', EVERYTHING)).map((c) => [c.checkedAt, c.ok])).toEqual([
        [NOW + HOUR_MS, false],
        [NOW + 1, true],
      ]);
      expect((await next.checks.bucketCounts('day', ['mon_a'], 0, NOW + DAY_MS))[0]).toMatchObject({
        count: 2,
        upCount: 1,
      });
    } finally {
      await next.close();
    }
    expect(rows()).toEqual({ journal: 0, checks: 2 });
  });

  it('a transaction holds the write lock from its start, so another process cannot leave its read unable to fold', async () => {
    await store.checks.write([check('mon_a', NOW + 1)], []);
    // Another process that does not wait for the lock (the busy timeout at 0).
    const other = new SqliteDatabase(file, { timeout: 0 });
    try {
      const listed = await store.transaction(async (tx) => {
        // The transaction reads first; a deferred one would still let the other commit here, and then fail to write.
        await tx.monitors.findById('mon_a');
        expect(() => other.prepare("update organizations set name = 'Acme Inc' where id = 'org_a'").run()).toThrow(
          /locked/,
        );
        return tx.checks.list('mon_a', EVERYTHING);
      });
      expect(listed.length).toBe(1);
    } finally {
      other.close();
    }
    expect(rows()).toEqual({ journal: 0, checks: 1 });
  });
});
