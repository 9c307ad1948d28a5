// Store contract: the monitor states ingest reads in its transaction (monitorStates.find) are what the database holds, whatever
// wrote them since its last commit: that commit, the API through the same store, another process, or nothing at all
// because the commit failed. SQLite keeps the states between commits (dialects/sqlite/state-cache.ts); these hold it
// to the same answers PostgreSQL reads each time.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { MonitorStateRow } from '../../src/domain/monitor.js';
import type { Store } from '../../src/store/index.js';
import { openStore } from '../../src/store/open-store.js';
import { dialects, type OpenedStore } from '../store-dialects.js';
import { addMonitor, addOrganization, check, monitorSpec, NOW } from './store-fixtures.js';

for (const dialect of dialects)
  describe.skipIf(!dialect.available)(`ingest's reads of monitor states on ${dialect.name}`, () => {
    let opened: OpenedStore;
    let store: Store;
    let ids: string[];
    beforeEach(async () => {
      opened = await dialect.open();
      store = opened.store;
      await addOrganization(store);
      ids = [await addMonitor(store, 'a'), await addMonitor(store, 'b')];
    });
    afterEach(async () => {
      await opened.cleanup();
    });

    /** One commit as ingest makes it: read the states, change them, write them with a check each, at `at`. */
    const commit = (store: Store, at: number, change: (row: MonitorStateRow) => void) =>
      store.transaction(async (tx) => {
        const rows = await tx.monitorStates.find(ids);
        for (const row of rows) {
          change(row);
          row.lastCheckAt = at;
        }
        await tx.checks.write(
          rows.map((row) => check(row.id, at)),
          rows,
        );
      });
    /** What ingest's next commit would read. */
    const read = () => store.transaction(async (tx) => tx.monitorStates.find(ids));

    it('reads what its last commits wrote', async () => {
      await commit(store, NOW + 1_000, (row) => {
        row.state = 'down';
        row.failureStreak = 3;
      });
      await commit(store, NOW + 2_000, (row) => {
        row.failureStreak += 1;
      });
      expect(
        (await read()).map(({ id, state, failureStreak, lastCheckAt }) => ({ id, state, failureStreak, lastCheckAt })),
      ).toEqual([...ids].sort().map((id) => ({ id, state: 'down', failureStreak: 4, lastCheckAt: NOW + 2_000 })));
    });

    it('reads what the API changed through the same store since', async () => {
      await commit(store, NOW + 1_000, (row) => {
        row.failureStreak = 2;
      });
      await store.monitors.updateSpec(
        ids[0] as string,
        monitorSpec('a', { retries: 5, degradedLatencyMs: 900 }),
        'api',
        NOW + 1_500,
      );
      const a = (await read()).find((row) => row.id === ids[0]);
      expect(a).toMatchObject({ retries: 5, degradedLatencyMs: 900, failureStreak: 2 });
    });

    it('reads what another process wrote since', async () => {
      await commit(store, NOW + 1_000, (row) => {
        row.failureStreak = 1;
      });
      const other = await openStore({
        dataDir: opened.env.WARDEN_DATA_DIR ?? '.',
        databaseUrl: opened.env.DATABASE_URL || undefined,
        databaseSchema: opened.env.DATABASE_SCHEMA,
      });
      try {
        await commit(other, NOW + 2_000, (row) => {
          row.state = 'down';
          row.failureStreak = 7;
        });
      } finally {
        await other.close();
      }
      expect((await read()).map((row) => [row.state, row.failureStreak, row.lastCheckAt])).toEqual([
        ['down', 7, NOW + 2_000],
        ['down', 7, NOW + 2_000],
      ]);
    });

    it('does not keep what a commit that failed changed', async () => {
      await commit(store, NOW + 1_000, (row) => {
        row.failureStreak = 1;
      });
      await expect(
        store.transaction(async (tx) => {
          const rows = await tx.monitorStates.find(ids);
          for (const row of rows) row.failureStreak = 99;
          await tx.checks.write([], rows);
          throw new Error('the commit fails');
        }),
      ).rejects.toThrow('the commit fails');
      expect((await read()).map((row) => row.failureStreak)).toEqual([1, 1]);
    });
  });
