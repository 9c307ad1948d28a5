// The cost of the location dimension (issue 37): ingest results per second and rollup rows and bytes at 10,000
// monitors at one location (today's) against 10,000 monitors at three (the edge and two relays), same run, on SQLite
// and, when reachable (WARDEN_TEST_POSTGRES_URL), on PostgreSQL.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import pg from 'pg';
import { createInProcessBus } from '../src/bus/bus.js';
import { newId } from '../src/domain/ids.js';
import { createLogger } from '../src/logger.js';
import { createIngest, INGEST_MAX_BATCH, type IngestInput } from '../src/runner/ingest.js';
import { SQLITE_FILE } from '../src/store/dialects/sqlite/connect.js';
import { openStore } from '../src/store/open-store.js';
import { POSTGRES_URL } from '../test/postgres-url.js';
import { seed } from '../test/seed.js';
import type { Benchmark } from './run.js';

const MONITORS = 10_000;
/** Rounds of results: every monitor checked once per round at each of its locations, a minute apart. */
const ROUNDS = 5;
/** Per result, three locations may cost at most this much more than one (a target, not the figure). */
const MAX_COST_PER_RESULT = 2;
const START = Date.UTC(2026, 10, 20, 12);

interface Figures {
  results: number;
  perSec: number;
  rollupRows: Record<string, number>;
  rollupBytes: Record<string, number>;
}

const ROLLUPS = ['check_buckets_hourly', 'check_buckets_daily', 'check_buckets_location_hourly'] as const;

export type Dialect = 'sqlite' | 'postgres';

export async function measure(dialect: Dialect, locations: 1 | 3): Promise<Figures> {
  const dir = mkdtempSync(join(tmpdir(), 'warden-bench-locations-'));
  const schema = `bench_locations_${locations}_${process.pid}`;
  try {
    let now = START;
    const clock = { now: () => now };
    const store = await openStore(
      dialect === 'postgres' ? { dataDir: dir, databaseUrl: POSTGRES_URL, databaseSchema: schema } : { dataDir: dir },
    );
    await store.migrate();
    const { report } = await seed(
      store,
      'organization: { key: bench, name: Bench }\nrelays: [{ key: fra, name: Frankfurt }, { key: nyc, name: New York }]',
      now,
    );
    const organizationId = report.organization.id;
    const relays = await store.relays.list(organizationId);
    const ids = await insertMonitors(store, organizationId, locations === 3 ? relays.map((r) => r.id) : null, now);
    const ingest = createIngest({ store, bus: createInProcessBus(), clock, logger: createLogger('silent') });
    let elapsed = 0;
    let results = 0;
    for (let round = 0; round < ROUNDS; round++) {
      now = START + round * 60_000;
      const inputs = roundOf(ids, now, locations === 3 ? relays.map((r) => ({ id: r.id, key: r.key })) : []);
      const started = performance.now();
      for (let i = 0; i < inputs.length; i += INGEST_MAX_BATCH)
        await ingest.recordMany(inputs.slice(i, i + INGEST_MAX_BATCH));
      await ingest.flush();
      // SQLite journals single-location checks and folds them later: a read of history folds them now, in the time.
      await store.checks.bucketCounts('hour', ids.slice(0, 1), 0, 1);
      elapsed += performance.now() - started;
      results += inputs.length;
    }
    await ingest.close();
    await store.close();
    const size = dialect === 'postgres' ? await postgresRollupSize(schema) : rollupSize(join(dir, SQLITE_FILE));
    return { results, perSec: (results / elapsed) * 1000, ...size };
  } finally {
    rmSync(dir, { recursive: true, force: true });
    if (dialect === 'postgres') await withPostgres((c) => c.query(`drop schema if exists ${schema} cascade`));
  }
}

async function withPostgres<T>(work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: POSTGRES_URL, connectionTimeoutMillis: 2000 });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

async function postgresRollupSize(schema: string): Promise<Pick<Figures, 'rollupRows' | 'rollupBytes'>> {
  return withPostgres(async (client) => {
    const rollupRows: Record<string, number> = {};
    const rollupBytes: Record<string, number> = {};
    for (const table of ROLLUPS) {
      const exists = await client.query('select to_regclass($1) as t', [`${schema}.${table}`]);
      if (exists.rows[0].t === null) continue;
      const { rows } = await client.query(
        `select count(*)::bigint as n, pg_total_relation_size('${schema}.${table}')::bigint as bytes from ${schema}.${table}`,
      );
      rollupRows[table] = Number(rows[0].n);
      rollupBytes[table] = Number(rows[0].bytes);
    }
    return { rollupRows, rollupBytes };
  });
}

async function insertMonitors(
  store: Awaited<ReturnType<typeof openStore>>,
  organizationId: string,
  locations: string[] | null,
  now: number,
): Promise<string[]> {
  const ids = Array.from({ length: MONITORS }, () => newId('mon'));
  await store.transaction(async (tx) => {
    for (const [i, id] of ids.entries())
      await tx.monitors.insert(
        {
          id,
          organizationId,
          key: `m${i}`,
          name: `M${i}`,
          type: 'tcp',
          config: { host: `10.${i >> 16}.${(i >> 8) & 255}.${i & 255}`, port: 80 },
          intervalSec: 60,
          timeoutMs: 10_000,
          runOn: 'edge',
          relayId: null,
          enabled: true,
          retries: 1,
          degradedLatencyMs: null,
          locations,
          managedBy: 'api',
          pushToken: null,
        },
        now,
      );
  });
  return ids;
}

/** One round: each monitor's edge result, and its relays' (with result ids, as relays send them). */
function roundOf(ids: string[], now: number, relays: { id: string; key: string }[]): IngestInput[] {
  const inputs: IngestInput[] = [];
  for (const [i, monitorId] of ids.entries()) {
    const ok = (i + now / 60_000) % 20 !== 0;
    inputs.push({
      monitorId,
      ok,
      latencyMs: 5 + (i % 40),
      error: ok ? null : 'refused',
      checkedAt: now,
      source: 'edge',
    });
    for (const relay of relays)
      inputs.push({
        monitorId,
        ok,
        latencyMs: 20 + (i % 60),
        error: ok ? null : 'refused',
        checkedAt: now,
        source: 'relay',
        resultId: `${relay.key}-${now}-${i}`,
        location: relay.id,
        locationLabel: relay.key,
      });
  }
  return inputs;
}

/** Rows and bytes (pages, through SQLite's dbstat) of each rollup table. */
function rollupSize(file: string): Pick<Figures, 'rollupRows' | 'rollupBytes'> {
  const db = new Database(file, { readonly: true });
  try {
    const rollupRows: Record<string, number> = {};
    const rollupBytes: Record<string, number> = {};
    const tables = new Set(db.prepare("select name from sqlite_master where type = 'table'").pluck().all());
    // Before migration 0029 (comparing with an older build) there is no per-location table.
    for (const table of ROLLUPS.filter((t) => tables.has(t))) {
      rollupRows[table] = db.prepare(`select count(*) from ${table}`).pluck().get() as number;
      rollupBytes[table] =
        (db
          .prepare("select sum(pgsize) from dbstat where name = ? or name like 'sqlite_autoindex_' || ? || '%'")
          .pluck()
          .get(table, table) as number | null) ?? 0;
    }
    return { rollupRows, rollupBytes };
  } finally {
    db.close();
  }
}

const sum = (values: Record<string, number>) => Object.values(values).reduce((a, b) => a + b, 0);
const kib = (bytes: number) => `${(bytes / 1024).toFixed(0)} KiB`;

export const benchmark: Benchmark = {
  name: 'locations',
  description: `ingest and rollup size at ${MONITORS} monitors × 1 location vs × 3 (edge + 2 relays), ${ROUNDS} rounds, SQLite and PostgreSQL`,
  async run() {
    const dialects: Dialect[] = ['sqlite'];
    if (await withPostgres(async () => true).catch(() => false)) dialects.push('postgres');
    else console.log(`PostgreSQL not reachable at ${POSTGRES_URL}: SQLite only`);
    let met = true;
    for (const dialect of dialects) met = (await compare(dialect)) && met;
    return met;
  },
};

/** Each twice, interleaved, keeping the faster run of each: the machine is shared. */
async function compare(dialect: Dialect): Promise<boolean> {
  const runs: Figures[][] = [[], []];
  for (let i = 0; i < 2; i++) {
    runs[0]?.push(await measure(dialect, 1));
    runs[1]?.push(await measure(dialect, 3));
  }
  const best = (list: Figures[] | undefined) => (list ?? []).reduce((a, b) => (b.perSec > a.perSec ? b : a)) as Figures;
  const one = best(runs[0]);
  const three = best(runs[1]);
  console.log(`-- ${dialect}`);
  for (const [label, f, n] of [
    ['1 location ', one, 1],
    ['3 locations', three, 3],
  ] as const) {
    console.log(
      `${label}: ${f.results} results, ${Math.round(f.perSec)} results/s, ${Math.round(f.perSec / n)} monitor-rounds/s`,
    );
    for (const table of ROLLUPS)
      console.log(`  ${table}: ${f.rollupRows[table]} rows, ${kib(f.rollupBytes[table] ?? 0)}`);
  }
  const costPerResult = one.perSec / three.perSec;
  console.log(
    `ratio 3/1 (${dialect}): results/s ${(three.perSec / one.perSec).toFixed(2)} (each result costs ${costPerResult.toFixed(2)}×, target ≤ ${MAX_COST_PER_RESULT}), monitor-rounds/s ${(three.perSec / 3 / one.perSec).toFixed(2)}, rollup rows ${(sum(three.rollupRows) / sum(one.rollupRows)).toFixed(2)}, rollup bytes ${(sum(three.rollupBytes) / sum(one.rollupBytes)).toFixed(2)}`,
  );
  return costPerResult <= MAX_COST_PER_RESULT;
}
