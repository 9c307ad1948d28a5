// Store contract, two processes on one PostgreSQL database: ingest's reads lock their monitors until the commit, a relay
// result committed by both is stored once, and migrating one schema is unaffected by another schema (another tenant, a
// parallel test) being dropped at the same time.

import pg from 'pg';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createInProcessBus } from '../../src/bus/bus.js';
import { applyConfig } from '../../src/config/apply.js';
import { parseConfigText } from '../../src/config/load.js';
import { HOUR_MS } from '../../src/domain/check.js';
import { createLogger } from '../../src/logger.js';
import { createIngest } from '../../src/runner/ingest.js';
import type { Store } from '../../src/store/index.js';
import { LATEST_MIGRATION } from '../../src/store/migrate.js';
import { openStore } from '../../src/store/open-store.js';
import { dialects, type OpenedStore, POSTGRES_URL } from '../store-dialects.js';
import { addMonitor, addOrganization, NOW } from './store-fixtures.js';

const postgres = dialects.find((d) => d.name === 'postgres');

describe.skipIf(!postgres?.available)('two Warden processes on one PostgreSQL schema', () => {
  let opened: OpenedStore;
  let other: Store;
  let observer: pg.Client;
  beforeEach(async () => {
    opened = await (postgres as NonNullable<typeof postgres>).open();
    other = await openStore({
      dataDir: '.',
      databaseUrl: opened.env.DATABASE_URL,
      databaseSchema: opened.env.DATABASE_SCHEMA,
    });
    observer = new pg.Client({ connectionString: POSTGRES_URL });
    await observer.connect();
  });
  afterEach(async () => {
    await observer.end();
    await other.close();
    await opened.cleanup();
  });

  /** Backends of this database waiting for a row lock. */
  const waitingForLock = async () =>
    Number(
      (
        await observer.query(
          "select count(*) as n from pg_stat_activity where wait_event_type = 'Lock' and datname = current_database()",
        )
      ).rows[0].n,
    );

  /** A transaction that reads these monitors' states and holds on until released: `read` resolves once it has read. */
  function holding(store: Store, ids: string[], after?: () => void) {
    let release = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    let read = () => {};
    const hasRead = new Promise<void>((resolve) => {
      read = resolve;
    });
    const done = store.transaction(async (tx) => {
      await tx.monitorStates.find(ids);
      read();
      await held;
      after?.();
    });
    return { read: hasRead, release, done };
  }

  it('applies one warden.yaml from two processes starting together: one after the other, nothing created twice', async () => {
    const file = parseConfigText(
      `organization: { name: Acme }
monitors:
${Array.from({ length: 20 }, (_, i) => `  - { key: m${i}, name: M${i}, type: tcp, config: { host: 127.0.0.1, port: ${2000 + i} } }`).join('\n')}
pages:
  - { slug: acme, title: Acme, components: [{ name: M0, monitor: m0 }] }
`,
      'warden.yaml',
      {},
    );
    const context = (store: Store) => ({
      store,
      bus: createInProcessBus(),
      clock: { now: () => NOW },
      logger: createLogger('silent'),
    });
    const [first, second] = await Promise.all([
      applyConfig(context(opened.store), file),
      applyConfig(context(other), file),
    ]);
    // Whichever went first created everything; the other found it all there.
    expect([first.created.length, second.created.length].sort((a, b) => a - b)).toEqual([0, 23]); // the organization, 20 monitors, the page and its component
    expect(await opened.store.monitors.count((await opened.store.organizations.list())[0]?.id as string)).toBe(20);
  });

  it('makes a second commit wait for the monitors the first one read, so neither overwrites the other', async () => {
    await addOrganization(opened.store);
    const id = await addMonitor(opened.store, 'a');
    const order: string[] = [];
    const first = holding(opened.store, [id], () => order.push('first commits'));
    await first.read;
    const second = other.transaction(async (tx) => {
      await tx.monitorStates.find([id]);
      order.push('second reads');
    });
    await vi.waitFor(async () => expect(await waitingForLock()).toBeGreaterThan(0));
    expect(order).toEqual([]);
    first.release();
    await Promise.all([first.done, second]);
    expect(order).toEqual(['first commits', 'second reads']);
  });

  it('stores a relay result committed by two processes at once once, failing neither commit', async () => {
    await addOrganization(opened.store);
    const id = await addMonitor(opened.store, 'a');
    const row = (resultId: string, checkedAt: number) =>
      ({
        monitorId: id,
        checkedAt,
        ok: true,
        degraded: false,
        latencyMs: 5,
        message: null,
        error: null,
        data: null,
        source: 'relay',
        resultId,
      }) as const;
    // The first commit holds its insert open; the second inserts the same result id and waits on the unique index.
    let release = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    let wrote = () => {};
    const hasWritten = new Promise<void>((resolve) => {
      wrote = resolve;
    });
    const first = opened.store.transaction(async (tx) => {
      await tx.checks.write([row('r1', NOW), row('r2', NOW + 1)], []);
      wrote();
      await held;
    });
    await hasWritten;
    const second = other.transaction((tx) => tx.checks.write([row('r2', NOW + 1), row('r3', NOW + 2)], []));
    await vi.waitFor(async () => expect(await waitingForLock()).toBeGreaterThan(0));
    release();
    await Promise.all([first, second]);
    const stored = await opened.store.checks.list(id, { from: 0, to: NOW + 10, limit: 10 });
    expect(stored.map((c) => c.checkedAt).sort()).toEqual([NOW, NOW + 1, NOW + 2]);
    // Counted once in its bucket too: the skipped row is not rolled up again.
    const [bucket] = await opened.store.checks.buckets('hour', [id], 0, NOW + HOUR_MS);
    expect(bucket?.count).toBe(3);
  });

  it('records a relay batch replayed to two processes at once once, through their ingest paths', async () => {
    await addOrganization(opened.store);
    const id = await addMonitor(opened.store, 'a');
    const bus = createInProcessBus();
    const logger = createLogger('silent');
    const clock = { now: () => NOW + 60_000 };
    const ingests = [
      createIngest({ store: opened.store, bus, clock, logger }),
      createIngest({ store: other, bus, clock, logger }),
    ];
    const batch = Array.from({ length: 50 }, (_, i) => ({
      monitorId: id,
      ok: i % 7 !== 0,
      checkedAt: NOW + i * 1000,
      source: 'relay' as const,
      resultId: `r${i}`,
    }));
    try {
      const outcomes = (await Promise.all(ingests.map((ingest) => ingest.recordMany(batch)))).flat();
      expect(outcomes.filter((o) => o.stored)).toHaveLength(50);
      expect(outcomes.filter((o) => !o.stored && o.reason === 'duplicate')).toHaveLength(50);
    } finally {
      for (const ingest of ingests) await ingest.close();
    }
    expect(await opened.store.checks.list(id, { from: 0, to: NOW + HOUR_MS, limit: 100 })).toHaveLength(50);
    const [bucket] = await opened.store.checks.buckets('hour', [id], 0, NOW + HOUR_MS);
    expect(bucket?.count).toBe(50);
  });

  it('reads without locking outside a transaction', async () => {
    await addOrganization(opened.store);
    const id = await addMonitor(opened.store, 'a');
    const first = holding(opened.store, [id]);
    await first.read;
    expect((await other.monitorStates.find([id])).map((m) => m.id)).toEqual([id]);
    first.release();
    await first.done;
  });

  it('migrates while other schemas of the database are created and dropped', async () => {
    let churning = true;
    /** Another tenant's schemas with a table each, created and dropped over and over until the migrations below are done. */
    const churn = async () => {
      const client = new pg.Client({ connectionString: POSTGRES_URL });
      await client.connect();
      while (churning) {
        const schema = `t_churn_${process.pid}_${Math.random().toString(36).slice(2, 10)}`;
        await client.query(
          `create schema "${schema}"; create table "${schema}".monitors (id text primary key, state text)`,
        );
        await client.query(`drop schema "${schema}" cascade`);
      }
      await client.end();
    };
    const fresh = `t_fresh_${process.pid}_${Math.random().toString(36).slice(2, 10)}`;
    const store = await openStore({ dataDir: '.', databaseUrl: POSTGRES_URL, databaseSchema: fresh });
    const churners = [churn(), churn(), churn()];
    try {
      // Each migrate looks up its tables; the stock lookup read every schema and failed on one dropped meanwhile.
      for (let i = 0; i < 20; i++) expect((await store.migrate()).current).toBe(LATEST_MIGRATION);
    } finally {
      churning = false;
      await Promise.all(churners);
      await store.close();
      await observer.query(`drop schema if exists "${fresh}" cascade`);
    }
  });
});
