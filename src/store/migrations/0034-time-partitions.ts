// Time series that age cheaply (issue 38, docs/storage.md "Partitions"): on PostgreSQL, `checks` becomes a table
// partitioned by day of `checked_at` and `check_buckets_hourly` one partitioned by month of `bucket_start`, so retention
// drops a day (a month) whole. SQLite keeps its tables. Built from the catalog (columns, constraints, indexes), not
// from a column list, so columns another migration added come along.
import { PostgresAdapter, sql } from 'kysely';
import type { AnyDb } from './schema-parts.js';

const DAY_MS = 86_400_000;

interface Parted {
  table: string;
  key: string;
  /** Partition name and bounds for each period the rows and the next days need. */
  periods(starts: readonly number[], now: number): { name: string; from: number; to: number }[];
}

const dayName = (table: string, from: number) =>
  `${table}_p${new Date(from).toISOString().slice(0, 10).replaceAll('-', '')}`;
const monthStart = (at: number) => Date.UTC(new Date(at).getUTCFullYear(), new Date(at).getUTCMonth(), 1);
const nextMonth = (at: number) => Date.UTC(new Date(at).getUTCFullYear(), new Date(at).getUTCMonth() + 1, 1);

const PARTED: readonly Parted[] = [
  {
    table: 'checks',
    key: 'checked_at',
    periods: (starts, now) => {
      const today = Math.floor(now / DAY_MS) * DAY_MS;
      const days = new Set([
        ...starts.map((at) => Math.floor(at / DAY_MS) * DAY_MS),
        today,
        today + DAY_MS,
        today + 2 * DAY_MS,
      ]);
      return [...days]
        .sort((a, b) => a - b)
        .map((from) => ({ name: dayName('checks', from), from, to: from + DAY_MS }));
    },
  },
  {
    table: 'check_buckets_hourly',
    key: 'bucket_start',
    periods: (starts, now) => {
      const months = new Set([...starts.map(monthStart), monthStart(now), nextMonth(now)]);
      return [...months]
        .sort((a, b) => a - b)
        .map((from) => ({ name: dayName('check_buckets_hourly', from).slice(0, -2), from, to: nextMonth(from) }));
    },
  },
];

/** More distinct periods than this in the rows (an import of years): the oldest stay in the default partition. */
const MAX_INITIAL_PARTITIONS = 1000;

export async function up(db: AnyDb): Promise<void> {
  if (!(db.getExecutor().adapter instanceof PostgresAdapter)) return;
  // Writers wait (ingest keeps committing to the journal meanwhile); readers of stored rows do not, until the swap.
  await sql`lock table checks, check_buckets_hourly in exclusive mode`.execute(db);
  for (const parted of PARTED) await partition(db, parted, Date.now());
}

export async function down(db: AnyDb): Promise<void> {
  if (!(db.getExecutor().adapter instanceof PostgresAdapter)) return;
  for (const parted of PARTED) await unpartition(db, parted);
}

interface Catalog {
  constraints: { name: string; definition: string }[];
  indexes: { definition: string }[];
}

/** The table's constraints (but NOT NULL and CHECK, which LIKE copies) and its indexes that back none. */
async function catalogOf(db: AnyDb, table: string): Promise<Catalog> {
  const constraints = await sql<{ name: string; definition: string }>`select conname as name,
      pg_get_constraintdef(oid) as definition from pg_constraint
    where conrelid = ${table}::regclass and contype in ('p', 'u', 'f', 'x') order by contype, conname`.execute(db);
  const indexes = await sql<{ definition: string }>`select pg_get_indexdef(x.indexrelid) as definition
    from pg_index x where x.indrelid = ${table}::regclass
      and not exists (select 1 from pg_constraint c where c.conindid = x.indexrelid and c.conrelid = x.indrelid)
    order by x.indexrelid`.execute(db);
  return { constraints: constraints.rows, indexes: indexes.rows };
}

/** A unique key of a partitioned table must hold the partition key: `(id)` becomes `(id, checked_at)`. */
const UNIQUE_COLUMNS = /^((?:PRIMARY KEY|UNIQUE) \(|CREATE UNIQUE INDEX .*? USING \w+ \()([^)]*)\)/;
const withKey = (definition: string, key: string) =>
  definition.replace(UNIQUE_COLUMNS, (all, head: string, cols: string) =>
    cols.split(', ').includes(key) ? all : `${head}${cols}, ${key})`,
  );
/** `down`: the unique keys of `checks` as they were (`up` added the partition key last; the buckets' key held it). */
const withoutKey = (definition: string, key: string) =>
  definition.replace(UNIQUE_COLUMNS, (all, head: string, cols: string) =>
    cols.endsWith(`, ${key}`) ? `${head}${cols.slice(0, -(key.length + 2))})` : all,
  );

/** Copies `table` into a partitioned twin, row by row in id order, and puts the twin in its place. */
async function partition(db: AnyDb, { table, key, periods }: Parted, now: number): Promise<void> {
  const twin = `${table}_parted`;
  const catalog = await catalogOf(db, table);
  await sql`create table ${sql.table(twin)} (like ${sql.table(table)} including defaults including identity
    including constraints including generated including storage) partition by range (${sql.ref(key)})`.execute(db);
  // The UTC days holding rows (a month's partition is made for each of its days').
  const starts = await sql<{ start: string }>`select distinct ${sql.ref(key)} / ${sql.lit(DAY_MS)} * ${sql.lit(DAY_MS)}
    as start from ${sql.table(table)}`.execute(db);
  const needed = periods(
    starts.rows.map((r) => Number(r.start)),
    now,
  );
  for (const { name, from, to } of needed.slice(-MAX_INITIAL_PARTITIONS))
    await sql`create table ${sql.table(name)} partition of ${sql.table(twin)}
      for values from (${sql.lit(from)}) to (${sql.lit(to)})`.execute(db);
  // A safety net: a row of a day no partition was made for yet (the runner fell behind) still goes in.
  await sql`create table ${sql.table(`${table}_default`)} partition of ${sql.table(twin)} default`.execute(db);
  const hasId = (await columnsOf(db, table)).includes('id');
  await sql`insert into ${sql.table(twin)} select * from ${sql.table(table)}
    ${hasId ? sql`order by id` : sql``}`.execute(db);
  await swap(db, table, twin, catalog, (definition) => withKey(definition, key));
}

/** Back to one plain table (`down`), the rows copied over. */
async function unpartition(db: AnyDb, { table, key }: Parted): Promise<void> {
  const twin = `${table}_plain`;
  const catalog = await catalogOf(db, table);
  await sql`create table ${sql.table(twin)} (like ${sql.table(table)} including defaults including identity
    including constraints including generated including storage)`.execute(db);
  await sql`insert into ${sql.table(twin)} select * from ${sql.table(table)}`.execute(db);
  await swap(db, table, twin, catalog, (definition) => (table === 'checks' ? withoutKey(definition, key) : definition));
}

/** Drops `table`, names `twin` after it, its identity continuing after the rows' ids, and declares its keys again. */
async function swap(db: AnyDb, table: string, twin: string, catalog: Catalog, adapt: (d: string) => string) {
  await sql`drop table ${sql.table(table)}`.execute(db);
  await sql`alter table ${sql.table(twin)} rename to ${sql.table(table)}`.execute(db);
  if ((await columnsOf(db, table)).includes('id')) {
    await sql`alter sequence ${sql.table(`${twin}_id_seq`)} rename to ${sql.table(`${table}_id_seq`)}`.execute(db);
    await sql`select setval(pg_get_serial_sequence(${table}, 'id'), coalesce((select max(id) from ${sql.table(table)}), 0) + 1, false)`.execute(
      db,
    );
  }
  for (const { name, definition } of catalog.constraints)
    await sql`alter table ${sql.table(table)} add constraint ${sql.id(name)} ${sql.raw(adapt(definition))}`.execute(db);
  // The definitions name the table as it was called (schema-qualified): the same name again.
  for (const { definition } of catalog.indexes) await sql.raw(adapt(definition)).execute(db);
}

async function columnsOf(db: AnyDb, table: string): Promise<string[]> {
  const { rows } = await sql<{ name: string }>`select attname as name from pg_attribute
    where attrelid = ${table}::regclass and attnum > 0 and not attisdropped`.execute(db);
  return rows.map((r) => r.name);
}
