// PostgreSQL's time partitions (issue 38, migration 0034, docs/storage.md "Partitions"): `checks` by UTC day,
// `check_buckets_hourly` by UTC month. Partitions are made a few days ahead (a default partition catches a row no
// partition was made for, and is emptied into the right one when it is made), and retention drops a period whole once
// all of it is past: a DROP TABLE instead of deleting a day of rows. In a cluster one process at a time does it: each
// step holds a transaction-scoped advisory lock, and a process that finds it taken skips the step.
import { sql } from 'kysely';
import { DAY_MS } from '../../../domain/check.js';
import type { Db } from '../../tables.js';

/** Where retention draws the line, per kind of row: what is older may go. */
export interface AgeCutoffs {
  checks: number;
  buckets: number;
}

export interface TimePartitionRepository {
  /**
   * Makes the partitions of `now` to `aheadDays` later, and those of rows the default partitions hold that are not past
   * `keep`, moving those rows in. The partitions made, or null when another process is at it.
   */
  prepare(now: number, aheadDays: number, keep: AgeCutoffs): Promise<string[] | null>;
  /** Drops the partitions wholly older than the cutoffs; the rows they held, per kind. Null when another process is at it. */
  dropBefore(cutoffs: AgeCutoffs): Promise<{ partitions: string[]; checks: number; buckets: number } | null>;
  /** The fallback: deletes up to `batch` rows of each default partition older than the cutoffs. */
  pruneDefault(cutoffs: AgeCutoffs, batch: number): Promise<{ checks: number; buckets: number }>;
}

interface Period {
  table: 'checks' | 'check_buckets_hourly';
  key: 'checked_at' | 'bucket_start';
  cutoff: keyof AgeCutoffs;
  start(at: number): number;
  next(start: number): number;
  name(start: number): string;
  /** Storage parameters of each partition made (`with (…)`), or none. */
  storage?: string;
}

const ymd = (at: number) => new Date(at).toISOString().slice(0, 10).replaceAll('-', '');
const monthOf = (at: number) => Date.UTC(new Date(at).getUTCFullYear(), new Date(at).getUTCMonth(), 1);

export const PARTITIONED: readonly Period[] = [
  {
    table: 'checks',
    key: 'checked_at',
    cutoff: 'checks',
    start: (at) => Math.floor(at / DAY_MS) * DAY_MS,
    next: (start) => start + DAY_MS,
    name: (start) => `checks_p${ymd(start)}`,
  },
  {
    table: 'check_buckets_hourly',
    key: 'bucket_start',
    cutoff: 'buckets',
    start: monthOf,
    next: (start) => monthOf(start + 32 * DAY_MS),
    name: (start) => `check_buckets_hourly_p${ymd(start).slice(0, 6)}`,
    // Half of each page kept free, as migration 0037 set on the partitions before: a bucket is updated by every fold
    // of its hour, in place where its page has room (docs/storage.md "Buckets updated in place").
    storage: 'fillfactor = 50',
  },
];

/** How long a step waits for a lock on the table (a long read under way) before it gives up until the next pass. */
const LOCK_TIMEOUT = '5s';

interface Partition {
  name: string;
  /** Null for the default partition. */
  from: number | null;
  to: number | null;
}

export function timePartitionRepository(root: Db): TimePartitionRepository {
  /** `work` in a transaction of its own holding the partitions' lock, or null when another process holds it. */
  async function alone<T>(work: (db: Db) => Promise<T>): Promise<T | null> {
    return root.transaction().execute(async (db) => {
      const { rows } = await sql<{ taken: boolean }>`select pg_try_advisory_xact_lock(
          hashtext(current_schema() || '.warden_time_partitions')) as taken`.execute(db);
      if (!rows[0]?.taken) return null;
      await sql`set local lock_timeout = ${sql.lit(LOCK_TIMEOUT)}`.execute(db);
      return work(db);
    });
  }

  return {
    prepare: (now, aheadDays, keep) =>
      alone(async (db) => {
        const made: string[] = [];
        for (const period of PARTITIONED) {
          const partitions = await partitionsOf(db, period.table);
          const have = new Set(partitions.map((p) => p.from));
          const wanted = new Set<number>();
          for (let start = period.start(now); start < now + aheadDays * DAY_MS; start = period.next(start))
            wanted.add(start);
          wanted.add(period.start(now + aheadDays * DAY_MS));
          const fallback = partitions.find((p) => p.from === null);
          if (fallback) for (const day of await daysIn(db, period, fallback.name, keep)) wanted.add(period.start(day));
          for (const start of [...wanted].sort((a, b) => a - b))
            if (!have.has(start)) made.push(await makePartition(db, period, start, fallback?.name));
        }
        return made;
      }),
    async dropBefore(cutoffs) {
      const dropped = { partitions: [] as string[], checks: 0, buckets: 0 };
      for (const period of PARTITIONED) {
        const old = (await partitionsOf(root, period.table)).filter(
          (p) => p.to !== null && p.to <= cutoffs[period.cutoff],
        );
        for (const { name } of old) {
          // One transaction per partition: a lock not granted in time leaves the others dropped.
          const rows = await alone(async (db) => {
            const { rows } = await sql<{ n: string }>`select count(*) as n from ${sql.table(name)}`.execute(db);
            await sql`drop table ${sql.table(name)}`.execute(db);
            return Number(rows[0]?.n ?? 0);
          });
          if (rows === null) return dropped.partitions.length > 0 ? dropped : null;
          dropped.partitions.push(name);
          dropped[period.cutoff] += rows;
        }
      }
      return dropped;
    },
    async pruneDefault(cutoffs, batch) {
      const pruned = { checks: 0, buckets: 0 };
      for (const period of PARTITIONED) {
        const fallback = (await partitionsOf(root, period.table)).find((p) => p.from === null);
        if (!fallback) continue;
        const result = await sql`delete from ${sql.table(fallback.name)} where ctid in
            (select ctid from ${sql.table(fallback.name)} where ${sql.ref(period.key)} < ${cutoffs[period.cutoff]}
             limit ${batch})`.execute(root);
        pruned[period.cutoff] += Number(result.numAffectedRows ?? 0);
      }
      return pruned;
    },
  };
}

/** The table's partitions and their bounds, read from the catalog (the current schema's table). */
async function partitionsOf(db: Db, table: string): Promise<Partition[]> {
  const { rows } = await sql<{ name: string; bound: string }>`select c.relname as name,
      pg_get_expr(c.relpartbound, c.oid) as bound
    from pg_inherits i join pg_class c on c.oid = i.inhrelid where i.inhparent = ${table}::regclass`.execute(db);
  return rows.map(({ name, bound }) => {
    const range = /FROM \('?(-?\d+)'?\) TO \('?(-?\d+)'?\)/.exec(bound);
    return { name, from: range ? Number(range[1]) : null, to: range ? Number(range[2]) : null };
  });
}

/** The UTC days of the default partition's rows not past `keep`: normally none, so the scan is of an empty table. */
async function daysIn(db: Db, period: Period, fallback: string, keep: AgeCutoffs): Promise<number[]> {
  const { rows } = await sql<{
    day: string;
  }>`select distinct ${sql.ref(period.key)} / ${sql.lit(DAY_MS)} * ${sql.lit(DAY_MS)}
      as day from ${sql.table(fallback)} where ${sql.ref(period.key)} >= ${keep[period.cutoff]}`.execute(db);
  return rows.map((r) => Number(r.day));
}

/**
 * The partition of the period from `start`. PostgreSQL refuses one whose rows the default partition holds: those are
 * set aside in a temporary table first, and put back through the parent, which routes them to the new partition.
 */
async function makePartition(db: Db, period: Period, start: number, fallback: string | undefined): Promise<string> {
  const name = period.name(start);
  const end = period.next(start);
  const moving = sql.table('warden_moving_rows');
  if (fallback) {
    await sql`create temporary table ${moving} (like ${sql.table(period.table)}) on commit drop`.execute(db);
    await sql`with taken as (delete from ${sql.table(fallback)} where ${sql.ref(period.key)} >= ${start}
        and ${sql.ref(period.key)} < ${end} returning *) insert into ${moving} select * from taken`.execute(db);
  }
  await sql`create table ${sql.table(name)} partition of ${sql.table(period.table)}
    for values from (${sql.lit(start)}) to (${sql.lit(end)})${period.storage ? sql.raw(` with (${period.storage})`) : sql``}`.execute(
    db,
  );
  if (fallback) {
    await sql`insert into ${sql.table(period.table)} select * from ${moving}`.execute(db);
    await sql`drop table ${moving}`.execute(db);
  }
  return name;
}
