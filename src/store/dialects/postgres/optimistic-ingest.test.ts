// PostgreSQL's one-statement write (optimistic-ingest.ts) and the day partitions of `checks`: a batch of heartbeats or
// edge checks must not touch `checks` at all, or every commit locks and opens every day kept (30 by default), a cost
// that grows with retention; a batch of relay results still finds one stored there, looking in its own days only. The
// partitions themselves: see time-partitions.test.ts. Runs where PostgreSQL does (skipped, with the warning of
// test/store-dialects.ts, elsewhere).
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { addMonitor, addOrganization, check, historyStore } from '../../../../test/contracts/store-fixtures.js';
import { migrationConnections, migrationDialects } from '../../../../test/migration-dialects.js';
import { type CheckRow, DAY_MS } from '../../../domain/check.js';
import type { Db } from '../../tables.js';
import { postgresOptimisticIngest } from './optimistic-ingest.js';
import { PARTITIONED, timePartitionRepository } from './time-partitions.js';

const postgres = migrationDialects.find((d) => d.name === 'postgres');
/** Days of checks kept before the batch's own: partitions a lookup in `checks` would lock. */
const DAYS_KEPT = 12;
const NOW = Date.UTC(2030, 0, 20, 12);
const CHECK_DAYS = PARTITIONED.find((p) => p.table === 'checks') as (typeof PARTITIONED)[number];

/** A heartbeat, or with an id a relay's result. */
const result = (monitorId: string, checkedAt: number, resultId: string | null): CheckRow =>
  check(monitorId, checkedAt, resultId ? { source: 'relay', resultId } : { source: 'push' });

describe.skipIf(!postgres?.available)('the one-statement write on postgres, with days of checks kept', () => {
  const { open, migrate } = migrationConnections(postgres as NonNullable<typeof postgres>);

  async function prepared() {
    const connection = await open();
    await migrate(connection);
    const { db } = connection;
    const store = historyStore(connection);
    await addOrganization(store);
    const id = await addMonitor(store, 'a');
    await timePartitionRepository(db).prepare(NOW - DAYS_KEPT * DAY_MS, DAYS_KEPT, { checks: 0, buckets: 0 });
    return { connection, store, id };
  }

  /** Writes one check for the monitor in a transaction; what it returned, and the relations of `checks` it locked. */
  async function writeOne(db: Db, id: string, resultId: string | null, at = NOW) {
    return db.transaction().execute(async (trx) => {
      const ingest = postgresOptimisticIngest(trx, () => {});
      const state = (await ingest.read([id])).get(id);
      if (!state) throw new Error('the monitor was not read');
      const written = await ingest.write([result(id, at, resultId)], [{ ...state, lastCheckAt: at }]);
      const { rows } = await sql<{ rel: string }>`select relation::regclass::text as rel from pg_locks
        where pid = pg_backend_pid() and locktype = 'relation' and relation::regclass::text like 'checks%'`.execute(
        trx,
      );
      return { written, locked: rows.map((r) => r.rel) };
    });
  }

  it('locks no partition of checks for a batch of heartbeats, however many days are kept', async () => {
    const { connection, id } = await prepared();
    // Several times: PostgreSQL plans a named statement anew for its first five runs, then keeps a generic plan.
    for (let i = 0; i < 7; i++) {
      const { written, locked } = await writeOne(connection.db, id, null);
      expect(written).toBe('written');
      expect(locked).toEqual([]);
    }
  });

  it('still refuses a relay result stored in checks already, whichever day holds it', async () => {
    const { connection, store, id } = await prepared();
    await store.checks.write([result(id, NOW - 3 * DAY_MS, 'r1')], []);
    await connection.checkJournal?.settle(connection.db);
    const stored = await sql<{ part: string }>`select tableoid::regclass::text as part from checks`.execute(
      connection.db,
    );
    expect(stored.rows.map((r) => r.part)).toEqual([CHECK_DAYS.name(NOW - 3 * DAY_MS)]);
    const again = (await writeOne(connection.db, id, 'r1', NOW - 3 * DAY_MS)).written;
    expect(again).toBe('duplicate');
    // A new one is written, its lookup kept to its own day: not a lock on every day kept, which at a year of checks
    // and a few commits at once fills PostgreSQL's lock table.
    const { written, locked } = await writeOne(connection.db, id, 'r2');
    expect(written).toBe('written');
    expect(
      new Set(locked.filter((r) => r.startsWith('checks_p')).map((r) => r.slice(0, 'checks_p20300120'.length))),
    ).toEqual(new Set([CHECK_DAYS.name(NOW)]));
  });
});
