// PostgreSQL's time partitions (migration 0034, time-partitions.ts): the upgrade of a database holding checks, rows
// routed by day, and retention dropping a day whole while the days kept, and the buckets, stay as they were. SQLite has
// no partitions: these run where PostgreSQL does (skipped, with the warning of test/store-dialects.ts, where it is not).
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { addMonitor, addOrganization, historyStore } from '../../../../test/contracts/store-fixtures.js';
import { migrationConnections, migrationDialects } from '../../../../test/migration-dialects.js';
import { type CheckRow, DAY_MS } from '../../../domain/check.js';
import { MIGRATION_NAMES, MIGRATIONS } from '../../migrate.js';
import type { DialectConnection } from '../connection.js';
import { timePartitionRepository } from './time-partitions.js';

const postgres = migrationDialects.find((d) => d.name === 'postgres');
/** Noon of a day far from the wall clock's, so no partition of the migration's own days is involved. */
const NOON = Date.UTC(2030, 0, 10, 12);

const check = (checkedAt: number, resultId: string | null = null): CheckRow => ({
  monitorId: 'mon_a',
  checkedAt,
  ok: checkedAt % 2 === 0,
  degraded: false,
  latencyMs: 10,
  message: null,
  error: null,
  data: null,
  source: resultId ? 'relay' : 'edge',
  resultId,
});

describe.skipIf(!postgres?.available)('time partitions on postgres', () => {
  const { open, migrate } = migrationConnections(postgres as NonNullable<typeof postgres>);

  async function settled(connection: DialectConnection): Promise<undefined> {
    await connection.checkJournal?.settle(connection.db);
  }
  async function storeWithMonitor(connection: DialectConnection) {
    await migrate(connection);
    const store = historyStore(connection);
    await addOrganization(store);
    await addMonitor(store, 'a');
    return store;
  }
  /** Where each check sits, once the journal is folded (a read of history folds it). */
  const placed = async (connection: DialectConnection) =>
    (await settled(connection)) ??
    (
      await sql<{
        id: string;
        part: string;
      }>`select id, tableoid::regclass::text as part from checks order by id`.execute(connection.db)
    ).rows.map((r) => [Number(r.id), r.part]);

  it('carries the checks of before over, ids and all, each into the partition of its day', async () => {
    const connection = await open();
    const store = await storeWithMonitor(connection);
    const times = [NOON - DAY_MS, NOON - 1, NOON, NOON + 1];
    await store.checks.write([...times.map((t) => check(t)), check(NOON + 5, 'r1')], []);
    const before = await store.checks.list('mon_a', { from: 0, to: NOON + DAY_MS, limit: 10 });
    // Back to the plain table of 0033 (0034's down), then up again, rows in it.
    await MIGRATIONS['0034-time-partitions']?.down?.(connection.db);
    await sql`delete from warden_migrations where name >= '0034-time-partitions'`.execute(connection.db);
    expect((await placed(connection)).every(([, part]) => part === 'checks')).toBe(true);
    expect((await migrate(connection)).applied).toEqual(MIGRATION_NAMES.filter((n) => n >= '0034-time-partitions'));

    expect(await store.checks.list('mon_a', { from: 0, to: NOON + DAY_MS, limit: 10 })).toEqual(before);
    expect(await placed(connection)).toEqual([
      [1, 'checks_p20300109'],
      [2, 'checks_p20300110'],
      [3, 'checks_p20300110'],
      [4, 'checks_p20300110'],
      [5, 'checks_p20300110'],
    ]);
    // The identity goes on after the ids carried over, and a replayed relay result is still stored once.
    await store.checks.write([check(NOON + 7), check(NOON + 5, 'r1')], []);
    const after = await store.checks.list('mon_a', { from: 0, to: NOON + DAY_MS, limit: 10 });
    expect(after.map((c) => [c.id, c.checkedAt])).toEqual([[6, NOON + 7], ...before.map((c) => [c.id, c.checkedAt])]);
  });

  it('routes checks across midnight to their days, and drops a day whole, the days kept and the buckets intact', async () => {
    const connection = await open();
    const store = await storeWithMonitor(connection);
    const partitions = timePartitionRepository(connection.db);
    const midnight = NOON - 12 * 3_600_000;
    const cutoffs = { checks: midnight - DAY_MS, buckets: 0 };
    expect(await partitions.prepare(NOON, 2, cutoffs)).toEqual([
      'checks_p20300110',
      'checks_p20300111',
      'checks_p20300112',
      'check_buckets_hourly_p203001',
    ]);
    const old = Array.from({ length: 50 }, (_, i) => check(midnight - 2 * DAY_MS + i * 60_000));
    const kept = [midnight - DAY_MS, midnight - 1, midnight, NOON];
    // Days before the partitions made ahead go to the default partition, until a pass makes theirs.
    await store.checks.write([...old, ...kept.map((t) => check(t))], []);
    expect(new Set((await placed(connection)).map(([, part]) => part))).toEqual(
      new Set(['checks_default', 'checks_p20300110']),
    );
    expect(await partitions.prepare(NOON, 2, { checks: 0, buckets: 0 })).toEqual([
      'checks_p20300108',
      'checks_p20300109',
    ]);
    expect(new Set((await placed(connection)).map(([, part]) => part))).toEqual(
      new Set(['checks_p20300108', 'checks_p20300109', 'checks_p20300110']),
    );
    const daily = await store.checks.buckets('day', ['mon_a'], 0, NOON + DAY_MS);

    const dropped = await partitions.dropBefore(cutoffs);
    // With it the (empty) days the migration made around the wall clock's today, years before 2030's cutoff.
    expect(dropped?.partitions.filter((name) => name.startsWith('checks_p2030'))).toEqual(['checks_p20300108']);
    expect(dropped).toMatchObject({ checks: 50, buckets: 0 });
    const left = await store.checks.list('mon_a', { from: 0, to: NOON + DAY_MS, limit: 100 });
    expect(left.map((c) => c.checkedAt)).toEqual([...kept].reverse());
    // Uptime reads the buckets: they outlive the raw checks, and for the days kept agree with them.
    expect(await store.checks.buckets('day', ['mon_a'], 0, NOON + DAY_MS)).toEqual(daily);
    const hourly = await store.checks.buckets('hour', ['mon_a'], midnight - DAY_MS, NOON + DAY_MS);
    expect(hourly.reduce((n, b) => n + b.count, 0)).toBe(kept.length);
    expect(hourly.reduce((n, b) => n + b.upCount, 0)).toBe(left.filter((c) => c.ok).length);
    // Nothing past the cutoff is left in the default partition to delete row by row.
    expect(await partitions.pruneDefault(cutoffs, 100)).toEqual({ checks: 0, buckets: 0 });
  });

  it('updates the buckets of a busy hour in place: a month made keeps half its pages free for their new versions', async () => {
    const connection = await open();
    const store = await storeWithMonitor(connection);
    // Forty monitors: their bucket rows fill a page at PostgreSQL's default fill factor.
    const monitors = ['mon_a'];
    for (let i = 0; i < 39; i++) monitors.push(await addMonitor(store, `m${i}`));
    const partitions = timePartitionRepository(connection.db);
    expect(await partitions.prepare(NOON, 0, { checks: 0, buckets: 0 })).toContain('check_buckets_hourly_p203001');
    const options = await sql<{ options: string[] | null }>`select reloptions as options from pg_class
      where oid = 'check_buckets_hourly_p203001'::regclass`.execute(connection.db);
    expect(options.rows[0]?.options).toEqual(['fillfactor=50']);
    // A second of checks for every monitor, folded in a transaction of the test's: the fold adds to the same 40 hourly
    // and 40 daily rows, and the transaction's own statistics say how many of its updates stayed on their row's page.
    const second = async (n: number) => {
      await store.checks.write(
        monitors.map((monitorId) => ({ ...check(NOON + n * 1000), monitorId })),
        [],
      );
      return connection.db.transaction().execute(async (trx) => {
        await connection.checkJournal?.settle(trx);
        const { rows } = await sql<{ table: string; updated: number; inPlace: number }>`select t as table,
            pg_stat_get_xact_tuples_updated(t::regclass)::int as updated,
            pg_stat_get_xact_tuples_hot_updated(t::regclass)::int as "inPlace"
          from unnest(array['check_buckets_hourly_p203001', 'check_buckets_daily']) as t`.execute(trx);
        return rows;
      });
    };
    expect(await second(0)).toEqual([
      { table: 'check_buckets_hourly_p203001', updated: 0, inPlace: 0 },
      { table: 'check_buckets_daily', updated: 0, inPlace: 0 },
    ]);
    // Each update found room on its row's page: no version moved elsewhere, nor an entry added to either index. (Later
    // folds need the versions of this one pruned from the page, which waits for older transactions anywhere in the
    // database to end: another test's, here.)
    expect(await second(1)).toEqual([
      { table: 'check_buckets_hourly_p203001', updated: 40, inPlace: 40 },
      { table: 'check_buckets_daily', updated: 40, inPlace: 40 },
    ]);
    const hourly = await store.checks.buckets('hour', monitors, NOON - 3_600_000, NOON + 3_600_000);
    expect(hourly.map((b) => b.count)).toEqual(monitors.map(() => 2));
  });

  it('deletes row by row only what the default partition holds past retention', async () => {
    const connection = await open();
    const store = await storeWithMonitor(connection);
    const partitions = timePartitionRepository(connection.db);
    await store.checks.write([check(NOON - 40 * DAY_MS), check(NOON - 40 * DAY_MS + 1), check(NOON)], []);
    const cutoffs = { checks: NOON - 30 * DAY_MS, buckets: NOON - 30 * DAY_MS };
    await settled(connection);
    expect(await partitions.pruneDefault(cutoffs, 1)).toEqual({ checks: 1, buckets: 1 });
    expect(await partitions.pruneDefault(cutoffs, 1)).toEqual({ checks: 1, buckets: 0 });
    expect(await partitions.pruneDefault(cutoffs, 1)).toEqual({ checks: 0, buckets: 0 });
    expect((await store.checks.list('mon_a', { from: 0, to: NOON + 1, limit: 10 })).map((c) => c.checkedAt)).toEqual([
      NOON,
    ]);
  });
});
