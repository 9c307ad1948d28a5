// Opens a PostgreSQL pool (pg): 64-bit integers as numbers, an optional schema of its own (created when missing).
import { Kysely, sql } from 'kysely';
import { storableText } from '../../../domain/storable-text.js';
import { importPackage } from '../../../runtime/launcher.js';
import type { Database } from '../../tables.js';
import type { DialectConnection } from '../connection.js';
import { storageFaults } from '../faults.js';
import { arrayLiteral } from './array-literal.js';
import { postgresCheckJournal } from './check-journal.js';
import { postgresCheckWriter } from './check-writer.js';
import { postgresDeliveryClaimer } from './delivery-claimer.js';
import { postgresFault } from './faults.js';
import { SchemaScopedPostgresDialect } from './introspector.js';
import { postgresOptimisticIngest } from './optimistic-ingest.js';
import { preparedName } from './prepared.js';

const POOL_SIZE = 10;
/** How long a request waits for a database connection before it fails as unreachable (503, Retry-After). */
const POOL_CONNECT_TIMEOUT_MS = 5_000;
const SCHEMA_NAME = /^[a-z_][a-z0-9_]{0,62}$/;

/** `create: false` leaves a missing schema missing (openStore then finds no Warden tables there and refuses). */
export async function connectPostgres(
  url: string,
  schema: string | undefined,
  { create = true } = {},
): Promise<DialectConnection> {
  // Loaded only here: a SQLite server never carries the driver in its heap.
  const { default: pg } = await importPackage<typeof import('pg')>('pg');
  const types = {
    getTypeParser: (oid: number, format?: string) => {
      // int8 (epoch ms, counts) and numeric (averages) as JS numbers: all our values fit in 2^53.
      if (oid === 20 || oid === 1700) return (value: string) => Number(value);
      return pg.types.getTypeParser(oid, format as 'text');
    },
  };
  if (schema !== undefined && !SCHEMA_NAME.test(schema)) throw new Error(`invalid PostgreSQL schema name: ${schema}`);
  if (schema && create) {
    const setup = new pg.Client({ connectionString: url });
    await setup.connect();
    try {
      await setup.query(`create schema if not exists "${schema}"`);
    } finally {
      await setup.end();
    }
  }
  // A PostgreSQL that drops packets instead of refusing them would hold every request for the kernel's TCP timeout
  // (minutes): a connection not had within POOL_CONNECT_TIMEOUT_MS fails (a 503 the client retries), and keepalive
  // probes find a dead peer under a connection that is checked out.
  const pool = new pg.Pool({
    connectionString: url,
    max: POOL_SIZE,
    types,
    connectionTimeoutMillis: POOL_CONNECT_TIMEOUT_MS,
    keepAlive: true,
    keepAliveInitialDelayMillis: 10_000,
    ...(schema ? { options: `-c search_path="${schema}"` } : {}),
  });
  pool.on('connect', namedAndNulSafe);
  // A connection that dies (PostgreSQL restarted, a network partition, an idle timeout upstream) fails the queries on
  // it, and the pool replaces it (one no longer queryable is not taken back); unheard, its 'error' event — on the pool
  // while idle, on the client while checked out between two queries — would end the process.
  pool.on('error', () => {});
  pool.on('connect', (client) => client.on('error', () => {}));
  const faults = storageFaults(postgresFault);
  const db = new Kysely<Database>({ dialect: faults.dialect(new SchemaScopedPostgresDialect({ pool })) });
  const parsed = new URL(url);
  const checkJournal = postgresCheckJournal(db);
  return {
    dialect: 'postgres',
    db,
    location: `postgres://${parsed.host}${parsed.pathname}${schema ? ` (schema ${schema})` : ''}`,
    writeChecks: postgresCheckWriter(checkJournal),
    checkJournal,
    optimisticIngest: postgresOptimisticIngest(db, checkJournal.appended),
    claimDeliveries: postgresDeliveryClaimer,
    locksRows: true,
    isUniqueViolation: (error) => (error as { code?: unknown } | null)?.code === '23505',
    faults,
    poolUse: () => ({ total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount, max: POOL_SIZE }),
    // Kysely looks for its migration tables in every schema unless told which: another schema's tables (another
    // tenant, a parallel test) would pass for ours.
    async migrationSchema() {
      const { rows } = await sql<{ schema: string }>`select current_schema() as schema`.execute(db);
      return rows[0]?.schema ?? undefined;
    },
  };
}

/**
 * PostgreSQL refuses U+0000 in text (the whole statement fails, and a group commit with it): every string parameter
 * is sent with NUL as U+FFFD, as hostile input is stored elsewhere. A lookup by such a key finds nothing, as it should.
 * The statements registered as prepared (prepared.ts) are sent by name.
 */
function namedAndNulSafe(client: { query: (...args: unknown[]) => unknown }): void {
  const query = client.query;
  client.query = function (this: unknown, ...args: unknown[]) {
    const name = preparedName(args[0]);
    if (name !== undefined) args[0] = { name, text: args[0] };
    const values = args[1];
    // The ingest's set-based statements send a column as one array parameter (set-statements.ts): as a literal.
    if (Array.isArray(values) && values.some((v) => hasNul(v) || Array.isArray(v))) args[1] = values.map(parameter);
    return query.apply(this, args);
  };
}

function parameter(value: unknown): unknown {
  if (!Array.isArray(value)) return nulSafe(value);
  const literal = arrayLiteral(value);
  return literal === undefined ? value.map(nulSafe) : storableText(literal);
}

const hasNul = (v: unknown): boolean => typeof v === 'string' && v.includes('\u0000');
const nulSafe = (v: unknown): unknown => (typeof v === 'string' ? storableText(v) : v);
