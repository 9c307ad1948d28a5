// Once around the suite (vitest.config.ts globalSetup): keeps the test database's system catalogs compact. A run
// creates, empties and drops schemas by the thousand (each test's store, the cluster and migration tests), and every
// such change leaves dead rows in pg_class, pg_attribute, pg_depend…; where autovacuum is off, as on the CI machine,
// nothing removes them, and catalogs of 500,000 dead rows made each store a test opened and released cost PostgreSQL
// ~0.4 s of CPU instead of ~0.1 s. So: VACUUM FULL before the run (well under a second), then a plain VACUUM every
// minute while it runs (each ~0.5 s of the server's CPU), as autovacuum would do. Neither changes what a test sees.
import pg from 'pg';
import { POSTGRES_URL } from './postgres-url.js';

/** The catalogs a schema's tables, columns, indexes, sequences and constraints are rows of. */
const CATALOGS = [
  'pg_class',
  'pg_attribute',
  'pg_attrdef',
  'pg_constraint',
  'pg_depend',
  'pg_index',
  'pg_inherits',
  'pg_namespace',
  'pg_sequence',
  'pg_type',
]
  .map((name) => `pg_catalog.${name}`)
  .join(', ');

const VACUUM_EVERY_MS = 60_000;

export default async function keepPostgresCatalogsCompact(): Promise<(() => Promise<void>) | undefined> {
  const client = new pg.Client({ connectionString: POSTGRES_URL, connectionTimeoutMillis: 2000 });
  // Unreachable: test/store-dialects.ts says so, or fails the run where PostgreSQL is required.
  if (
    !(await client.connect().then(
      () => true,
      () => false,
    ))
  )
    return undefined;
  client.on('error', () => {});
  try {
    // Another run's sessions may hold the catalogs: wait a little, then go on without.
    await client.query(`set lock_timeout = '5s'`);
    await client.query(`vacuum full ${CATALOGS}`);
  } catch (error) {
    console.warn(`warden: could not compact PostgreSQL's catalogs before the tests: ${(error as Error).message}`);
  }
  let running: Promise<unknown> | null = null;
  const timer = setInterval(() => {
    running ??= client
      .query(`vacuum ${CATALOGS}`)
      .catch(() => {})
      .finally(() => {
        running = null;
      });
  }, VACUUM_EVERY_MS);
  timer.unref();
  return async () => {
    clearInterval(timer);
    await running;
    await client.end().catch(() => {});
  };
}
