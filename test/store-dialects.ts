// The storage dialects every store test runs against: SQLite always, PostgreSQL when reachable, each test with a store
// of its own. Migrating a fresh database for every test cost ~80 ms on SQLite and ~320 ms on PostgreSQL (hundreds of
// tests, minutes of the suite): SQLite copies a database migrated once per process, PostgreSQL reuses migrated schemas
// emptied after each test (and drops one a test changed the shape of).
import { copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { SQLITE_FILE } from '../src/store/dialects/sqlite/connect.js';
import type { Store } from '../src/store/index.js';
import { openStore } from '../src/store/open-store.js';
import { POSTGRES_URL } from './postgres-url.js';

export { POSTGRES_URL };

async function reachable(url: string): Promise<boolean> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 2000 });
  try {
    await client.connect();
    await client.query('select 1');
    return true;
  } catch {
    return false;
  } finally {
    await client.end().catch(() => {});
  }
}

export const postgresAvailable = await reachable(POSTGRES_URL);
if (!postgresAvailable && process.env.WARDEN_TEST_REQUIRE_POSTGRES === '1')
  // CI has PostgreSQL: a run that silently tested SQLite alone would pass without testing half the store.
  throw new Error(`PostgreSQL is not reachable at ${POSTGRES_URL}, and WARDEN_TEST_REQUIRE_POSTGRES=1 requires it`);
if (!postgresAvailable)
  console.warn(
    `\n  ⚠ PostgreSQL is not reachable at ${POSTGRES_URL}: the PostgreSQL storage tests are SKIPPED (SQLite ones still run).\n`,
  );

export interface OpenedStore {
  store: Store;
  /** Environment that points a child process (the CLI) at the same database. */
  env: Record<string, string>;
  cleanup(): Promise<void>;
}

export interface DialectCase {
  name: 'sqlite' | 'postgres';
  available: boolean;
  /**
   * A fresh, empty store; `migrate: false` leaves the schema empty. SQLite: `dataDir`, an empty folder to hold it (a
   * temporary one by default; removed afterwards either way).
   */
  open(options?: { migrate?: boolean; dataDir?: string }): Promise<OpenedStore>;
}

/** A data directory holding a migrated SQLite database, made once per process; each test gets a copy of its file. */
let sqliteTemplate: Promise<string> | undefined;

function migratedSqliteFile(): Promise<string> {
  sqliteTemplate ??= (async () => {
    const dir = mkdtempSync(join(tmpdir(), 'warden-template-'));
    const store = await openStore({ dataDir: dir });
    await store.migrate();
    // Closing checkpoints the WAL into the main file, so the file alone is the whole database.
    await store.close();
    process.once('exit', () => rmSync(dir, { recursive: true, force: true }));
    return join(dir, SQLITE_FILE);
  })();
  return sqliteTemplate;
}

/** Migrated PostgreSQL schemas of this process, emptied and waiting for the next test. */
const idleSchemas: string[] = [];
/** The shape (tables and columns) of a freshly migrated schema: a schema a test altered is dropped, not reused. */
let migratedShape: string | undefined;
const POOLED_PREFIX = 'tp_';

/**
 * One connection per process for emptying, comparing and dropping schemas, kept open: a new PostgreSQL backend costs the
 * server ~25 ms of CPU to start and more to warm its catalog caches, once for every test that opened a store.
 */
let admin: Promise<pg.Client> | undefined;

function adminClient(): Promise<pg.Client> {
  admin ??= (async () => {
    const client = new pg.Client({ connectionString: POSTGRES_URL });
    // A connection lost (the server restarted) is replaced at the next use.
    client.on('error', () => {
      admin = undefined;
    });
    await client.connect();
    // It must not keep a worker alive once its files are done: held only while a query runs (withClient).
    streamOf(client).unref();
    return client;
  })().catch((error: unknown) => {
    admin = undefined;
    throw error;
  });
  return admin;
}

const streamOf = (client: pg.Client) =>
  (client as unknown as { connection: { stream: { ref(): void; unref(): void } } }).connection.stream;
/** Queries running on each kept connection: while there is one, its socket keeps the process alive. */
const inUse = new WeakMap<pg.Client, number>();

async function withClient<T>(work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = await adminClient();
  // Unref'd throughout, a process with nothing else to wait on (a benchmark opening a cluster) exited mid-query.
  const users = inUse.get(client) ?? 0;
  if (users === 0) streamOf(client).ref();
  inUse.set(client, users + 1);
  try {
    return await work(client);
  } finally {
    const left = (inUse.get(client) ?? 1) - 1;
    inUse.set(client, left);
    if (left === 0) streamOf(client).unref();
  }
}

async function shapeOf(client: pg.Client, schema: string): Promise<string> {
  // From the catalog, not information_schema.columns: the view took ~120 ms of the server's CPU per test.
  const { rows } = await client.query<{ shape: string }>(
    `select string_agg(c.relname || '.' || a.attname || ':' || format_type(a.atttypid, a.atttypmod), ','
                       order by c.relname, a.attname) as shape
       from pg_attribute a
       join pg_class c on c.oid = a.attrelid
       join pg_namespace n on n.oid = c.relnamespace
      where n.nspname = $1 and c.relkind in ('r', 'p', 'v', 'm', 'f') and a.attnum > 0 and not a.attisdropped`,
    [schema],
  );
  const migrations = await client.query<{ name: string }>(
    `select name from "${schema}".warden_migrations order by name`,
  );
  return `${rows[0]?.shape ?? ''}|${migrations.rows.map((m) => m.name).join(',')}`;
}

/** Drops the pooled schemas that processes no longer running left behind (a test run that was killed). */
let staleSwept: Promise<void> | undefined;
function sweepStaleSchemas(): Promise<void> {
  staleSwept ??= withClient(async (client) => {
    const { rows } = await client.query<{ name: string }>(
      `select nspname as name from pg_namespace where nspname like '${POOLED_PREFIX}%'`,
    );
    for (const { name } of rows) {
      const pid = Number(name.split('_')[1]);
      if (Number.isInteger(pid) && pid !== process.pid && !processAlive(pid))
        await client.query(`drop schema if exists "${name}" cascade`);
    }
  }).catch(() => {});
  return staleSwept;
}

function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Empties a schema a test used and keeps it for the next, or drops it when the test changed its shape. */
async function releaseSchema(schema: string): Promise<void> {
  await withClient(async (client) => {
    if (migratedShape === undefined || (await shapeOf(client, schema).catch(() => '')) !== migratedShape) {
      await client.query(`drop schema if exists "${schema}" cascade`);
      return;
    }
    // DELETE, not TRUNCATE: a test leaves a few rows, and TRUNCATE gives every table and index new files (~150 ms of
    // the server's CPU per test). Foreign keys and triggers are off meanwhile (session_replication_role), so the order
    // does not matter; the sequences start again as TRUNCATE's `restart identity` made them.
    const { rows } = await client.query<{ name: string; kind: string }>(
      `select c.relname as name, c.relkind as kind from pg_class c join pg_namespace n on n.oid = c.relnamespace
        where n.nspname = $1 and c.relname not like 'warden_migrations%'
          and (c.relkind = 'S' or (c.relkind in ('r', 'p') and not c.relispartition))`,
      [schema],
    );
    const name = (t: { name: string }) => `"${schema}"."${t.name}"`;
    const emptied = await client
      .query(
        // One query string: one implicit transaction, rolled back whole on an error, the shared connection left clean.
        [
          'set local session_replication_role = replica',
          ...rows.filter((t) => t.kind !== 'S').map((t) => `delete from ${name(t)}`),
          // setval, not `alter sequence … restart`, which gives the sequence a new file too.
          ...rows.filter((t) => t.kind === 'S').map((t) => `select setval('${name(t)}', 1, false)`),
          // What the migrations themselves insert.
          `insert into "${schema}".change_counter (id, version) values (1, 0)`,
        ].join(';\n'),
      )
      .then(
        () => true,
        // A role that may not turn triggers off (not a superuser): the schema goes, as one of another shape does.
        async () => {
          await client.query(`drop schema if exists "${schema}" cascade`);
          return false;
        },
      );
    if (emptied) idleSchemas.push(schema);
  });
}

export const dialects: DialectCase[] = [
  {
    name: 'sqlite',
    available: true,
    async open({ migrate = true, dataDir = mkdtempSync(join(tmpdir(), 'warden-test-')) } = {}) {
      if (migrate) copyFileSync(await migratedSqliteFile(), join(dataDir, SQLITE_FILE));
      const store = await openStore({ dataDir });
      if (migrate) await store.migrate();
      return {
        store,
        env: { WARDEN_DATA_DIR: dataDir, DATABASE_URL: '' },
        async cleanup() {
          await store.close().catch(() => {});
          rmSync(dataDir, { recursive: true, force: true });
        },
      };
    },
  },
  {
    name: 'postgres',
    available: postgresAvailable,
    async open({ migrate = true } = {}) {
      if (migrate) await sweepStaleSchemas();
      const reused = migrate ? idleSchemas.pop() : undefined;
      const schema =
        reused ?? `${migrate ? POOLED_PREFIX : 't_'}${process.pid}_${Math.random().toString(36).slice(2, 10)}`;
      const store = await openStore({ dataDir: '.', databaseUrl: POSTGRES_URL, databaseSchema: schema });
      if (migrate) await store.migrate();
      if (migrate && migratedShape === undefined) migratedShape = await withClient((client) => shapeOf(client, schema));
      let cleaned = false;
      return {
        store,
        env: { DATABASE_URL: POSTGRES_URL, DATABASE_SCHEMA: schema },
        async cleanup() {
          if (cleaned) return;
          cleaned = true;
          await store.close().catch(() => {});
          if (migrate) await releaseSchema(schema);
          else await withClient((client) => client.query(`drop schema if exists "${schema}" cascade`));
        },
      };
    },
  },
];
