// PostgreSQL's check journal (check-journal.ts) is a queue: every commit appends to it and every fold deletes what it
// moved. Deleted rows are only reclaimed by a vacuum, and autovacuum looks once a minute at best: the process vacuums
// the journal itself after folding, at most every JOURNAL_VACUUM_EVERY_MS, and not while nothing is folded.
import { Kysely, PostgresDialect } from 'kysely';
import pg from 'pg';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { seed } from '../../../../test/seed.js';
import { dialects, type OpenedStore, POSTGRES_URL } from '../../../../test/store-dialects.js';
import { createInProcessBus } from '../../../bus/bus.js';
import { createLogger } from '../../../logger.js';
import { createIngest, type Ingest } from '../../../runner/ingest.js';
import { foldStatement } from './check-journal.js';

const postgres = dialects.find((d) => d.name === 'postgres');

describe.skipIf(!postgres?.available)('the check journal on postgres', () => {
  let opened: OpenedStore;
  let direct: pg.Client;
  let ingest: Ingest;
  let monitorId: string;
  const now = Date.UTC(2026, 10, 30, 12);

  /** How many times the journal was vacuumed (by anyone: autovacuum too, which a test of seconds does not meet). */
  const vacuums = async () => {
    const { rows } = await direct.query(
      `select vacuum_count + autovacuum_count as n from pg_stat_user_tables
       where schemaname = $1 and relname = 'check_journal'`,
      [opened.env.DATABASE_SCHEMA],
    );
    return Number(rows[0]?.n ?? 0);
  };
  const history = () => opened.store.checks.list(monitorId, { from: 0, to: now + 60_000, limit: 100 });

  beforeEach(async () => {
    opened = await (postgres as NonNullable<typeof postgres>).open();
    direct = new pg.Client({ connectionString: POSTGRES_URL });
    await direct.connect();
    const seeded = await seed(
      opened.store,
      'organization: { name: T }\nmonitors:\n  - { key: hb, name: HB, type: heartbeat }',
      now,
    );
    monitorId = (seeded.monitors.hb as { id: string }).id;
    ingest = createIngest({
      store: opened.store,
      bus: createInProcessBus(),
      clock: { now: () => now },
      logger: createLogger('silent'),
    });
  });
  afterEach(async () => {
    await ingest?.close();
    await direct?.end();
    await opened?.cleanup();
  });

  it('is vacuumed after a fold, and not again while nothing is folded', async () => {
    const before = await vacuums();
    // Nothing journaled: a read of history folds nothing, and nothing is vacuumed.
    expect(await history()).toHaveLength(0);
    for (let i = 0; i < 5; i++) await ingest.record({ monitorId, ok: true, source: 'push', checkedAt: now + i });
    // The read folds the journal (its rows are deleted there), then the vacuum follows on its own.
    expect(await history()).toHaveLength(5);
    await expect.poll(vacuums, { timeout: 5000, interval: 50 }).toBe(before + 1);
    // (Whether the deleted rows could be reclaimed depends on the other transactions of the server: other tests'.)
    // More reads, nothing new journaled: no vacuum for them.
    await history();
    await history();
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(await vacuums()).toBe(before + 1);
  });
  it('folds once at a time: a read waits for a fold under way in a transaction, then finds every check once', async () => {
    for (let i = 0; i < 5; i++) await ingest.record({ monitorId, ok: true, source: 'push', checkedAt: now + i });
    let second: Promise<unknown> | undefined;
    let secondDone = false;
    await opened.store.transaction(async (tx) => {
      // This read folds the journal in its transaction, which holds the fold until it ends.
      expect(await tx.checks.list(monitorId, { from: 0, to: now + 60_000, limit: 100 })).toHaveLength(5);
      for (let i = 5; i < 8; i++) await ingest.record({ monitorId, ok: true, source: 'push', checkedAt: now + i });
      second = history().then((found) => {
        secondDone = true;
        return found;
      });
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(secondDone).toBe(false);
    });
    const found = (await second) as { checkedAt: number }[];
    expect(found.map((c) => c.checkedAt)).toEqual([7, 6, 5, 4, 3, 2, 1, 0].map((i) => now + i));
  });
  it('plans a fold as one range of the journal even after a vacuum found it empty', async () => {
    const schema = opened.env.DATABASE_SCHEMA;
    const journal = `"${schema}".check_journal`;
    const fill = (n: number) =>
      direct.query(
        `insert into ${journal} (monitor_id, checked_at, ok, degraded, source)
         select $1, g, 1, 0, 'push' from generate_series(1, ${n}) g`,
        [monitorId],
      );
    // A journal folded empty and vacuumed with its pages kept: PostgreSQL then takes it for empty (reltuples 0).
    await fill(2000);
    await direct.query(`delete from ${journal}`);
    await direct.query(`vacuum (truncate false) ${journal}`);
    await fill(3000);
    const pool = new pg.Pool({ connectionString: POSTGRES_URL, options: `-c search_path=${schema}`, max: 1 });
    const db = new Kysely<unknown>({ dialect: new PostgresDialect({ pool }) });
    try {
      const compiled = foldStatement(20_000).compile(db);
      const client = await pool.connect();
      try {
        const { rows } = await client.query(`explain ${compiled.sql}`, [...compiled.parameters]);
        const plan = rows.map((r: Record<string, string>) => r['QUERY PLAN']).join('\n');
        // One range up to the last id of the oldest: never the subquery, nor a list of ids, gone through again for each row.
        expect(plan).toMatch(/\(id <= \$\d+\)/);
        expect(plan).not.toMatch(/Nested Loop|= ANY/);
        // Neither its rows locked one by one (one fold at a time holds the schema's advisory lock) nor the checks
        // without a result id inserted as speculative ones: only relay results can be in `checks` already.
        expect(plan).not.toMatch(/LockRows/);
        expect(plan.match(/Insert on checks/g)).toHaveLength(2);
        expect(plan.match(/Conflict Resolution: NOTHING/g)).toHaveLength(1);
      } finally {
        client.release();
      }
    } finally {
      await db.destroy();
    }
  });
});
