// PostgreSQL's one-statement commits (ingest-optimistic.ts): they write only states still at the version they were
// computed from, so two processes committing results for the same monitors at once lose none, and retry only when
// one moved what the other decided from; a replayed relay result,
// a monitor changed or deleted meanwhile, all end as the locking path would.
import pg from 'pg';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { seed } from '../../test/seed.js';
import { dialects, type OpenedStore, POSTGRES_URL } from '../../test/store-dialects.js';
import { createInProcessBus } from '../bus/bus.js';
import type { Monitor } from '../domain/monitor.js';
import { createLogger } from '../logger.js';
import type { Store } from '../store/index.js';
import { openStore } from '../store/open-store.js';
import { createIngest, type Ingest } from './ingest.js';

const CONFIG = `
organization: { name: Test }
monitors:
  - { key: hb, name: HB, type: heartbeat }
  - { key: relayed, name: Relayed, type: tcp, retries: 10, config: { host: 127.0.0.1, port: 1 } }
`;
const postgres = dialects.find((d) => d.name === 'postgres');
const DAY = 86_400_000;

describe.skipIf(!postgres?.available)('optimistic ingest on postgres', () => {
  let opened: OpenedStore;
  let other: Store;
  let direct: pg.Client;
  let ingests: Ingest[];
  let hb: Monitor;
  let relayed: Monitor;
  const now = Date.UTC(2026, 10, 20, 12, 0, 0);

  const ingestOn = (store: Store) => {
    const ingest = createIngest({
      store,
      bus: createInProcessBus(),
      clock: { now: () => now },
      logger: createLogger('silent'),
    });
    ingests.push(ingest);
    return ingest;
  };
  /** The monitor's latest check, and the time of the latest result it keeps. */
  const latest = async (id: string) => {
    const row = (await direct.query('select last_check_at, last_result from monitors where id = $1', [id])).rows[0];
    return { lastCheckAt: Number(row?.last_check_at), resultAt: JSON.parse(row?.last_result).checkedAt };
  };
  const journaled = async () => Number((await direct.query('select count(*) as n from check_journal')).rows[0]?.n);

  beforeEach(async () => {
    opened = await (postgres as NonNullable<typeof postgres>).open();
    // A second process on the same schema: its own pool and its own kept states.
    other = await openStore({
      dataDir: '.',
      databaseUrl: POSTGRES_URL,
      databaseSchema: opened.env.DATABASE_SCHEMA,
      create: false,
    });
    direct = new pg.Client({ connectionString: POSTGRES_URL, options: `-c search_path=${opened.env.DATABASE_SCHEMA}` });
    await direct.connect();
    ingests = [];
    const seeded = await seed(opened.store, CONFIG, now);
    hb = seeded.monitors.hb as Monitor;
    relayed = seeded.monitors.relayed as Monitor;
  });
  afterEach(async () => {
    for (const ingest of ingests ?? []) await ingest.close();
    await other?.close();
    await direct?.end();
    await opened.cleanup();
  });

  it('commits a batch that moves no state in one statement, and one that does in a transaction', async () => {
    const a = ingestOn(opened.store);
    const write = vi.spyOn(opened.store.optimisticIngest as NonNullable<Store['optimisticIngest']>, 'write');
    const push = (ok: boolean, at: number) => a.record({ monitorId: hb.id, ok, source: 'push', checkedAt: at });
    await push(true, now); // unknown → up: a change of state
    expect(write).not.toHaveBeenCalled();
    await push(true, now + 1);
    await push(true, now + 2);
    expect(write.mock.results.map((r) => r.value)).toHaveLength(2);
    expect(await Promise.all(write.mock.results.map((r) => r.value))).toEqual(['written', 'written']);
    await push(false, now + 3); // up → down
    expect(write).toHaveBeenCalledTimes(2);
    expect(await opened.store.monitors.findById(hb.id)).toMatchObject({ state: 'down', lastCheckAt: now + 3 });
    expect(await opened.store.checks.list(hb.id, { from: 0, to: now + 10, limit: 10 })).toHaveLength(4);
  });

  it('loses no result when two processes commit for the same monitor at once', async () => {
    const [a, b] = [ingestOn(opened.store), ingestOn(other)];
    // Every push fails: the streak counts each one stored on top of the state the one before left. Both of a round
    // have the same time, so neither is late for the other, whichever commits first.
    const push = (ingest: Ingest, at: number) =>
      ingest.record({ monitorId: hb.id, ok: false, error: 'x', source: 'push', checkedAt: at });
    const rounds = 40;
    for (let i = 0; i < rounds; i++) await Promise.all([push(a, now + i), push(b, now + i)]);
    await Promise.all([a.flush(), b.flush()]);
    const monitor = await opened.store.monitors.findById(hb.id);
    expect(monitor).toMatchObject({ state: 'down', failureStreak: 2 * rounds, lastCheckAt: now + rounds - 1 });
    expect(await opened.store.checks.list(hb.id, { from: 0, to: now + 1000, limit: 1000 })).toHaveLength(2 * rounds);
  });

  it('backs off to the locking transaction for a while after a batch whose states kept moving', async () => {
    const a = ingestOn(opened.store);
    const push = (at: number) => a.record({ monitorId: hb.id, ok: true, source: 'push', checkedAt: at });
    await push(now); // unknown → up, in a transaction
    const write = vi.spyOn(opened.store.optimisticIngest as NonNullable<Store['optimisticIngest']>, 'write');
    // Another process moving the monitor before each of the three tries: the batch goes to the locking path.
    write.mockResolvedValue('stale');
    expect(await push(now + 1)).toMatchObject({ stored: true });
    expect(write).toHaveBeenCalledTimes(3);
    write.mockRestore();
    const after = vi.spyOn(opened.store.optimisticIngest as NonNullable<Store['optimisticIngest']>, 'write');
    // Within the backoff the next batch does not try: one statement less per batch while the contention lasts.
    expect(await push(now + 2)).toMatchObject({ stored: true });
    expect(after).not.toHaveBeenCalled();
    expect(await opened.store.monitors.findById(hb.id)).toMatchObject({ state: 'up', lastCheckAt: now + 2 });
    expect(await opened.store.checks.list(hb.id, { from: 0, to: now + 10, limit: 10 })).toHaveLength(3);
  });

  it('writes on the states another process moved only once it has read them again', async () => {
    const [a, b] = [ingestOn(opened.store), ingestOn(other)];
    const result = (at: number) => ({
      monitorId: relayed.id,
      ok: false,
      error: 'x',
      source: 'relay' as const,
      checkedAt: at,
    });
    await a.record(result(now));
    await a.record(result(now + 1)); // kept by a from here on
    await b.record(result(now + 2));
    await a.record(result(now + 3));
    expect(await opened.store.monitors.findById(relayed.id)).toMatchObject({ failureStreak: 4, lastCheckAt: now + 3 });
  });

  it('lets processes store results for the same monitor at once without retrying, none moving its state', async () => {
    const [a, b] = [ingestOn(opened.store), ingestOn(other)];
    const push = (ingest: Ingest, at: number) =>
      ingest.record({ monitorId: hb.id, ok: true, source: 'push', checkedAt: at });
    await push(a, now); // unknown → up, in a transaction
    const writes = [opened.store, other].map((store) =>
      vi.spyOn(store.optimisticIngest as NonNullable<Store['optimisticIngest']>, 'write'),
    );
    for (let i = 1; i <= 20; i++) await Promise.all([push(a, now + 2 * i), push(b, now + 2 * i - 1)]);
    const answers = await Promise.all(writes.flatMap((w) => w.mock.results.map((r) => r.value)));
    expect(answers).toHaveLength(40);
    expect(new Set(answers)).toEqual(new Set(['written']));
    expect(await latest(hb.id)).toEqual({ lastCheckAt: now + 40, resultAt: now + 40 });
    expect(await journaled()).toBe(41);
  });

  it('keeps the newest latest result when another process stores an older one after it', async () => {
    const [a, b] = [ingestOn(opened.store), ingestOn(other)];
    const push = (ingest: Ingest, at: number) =>
      ingest.record({ monitorId: hb.id, ok: true, source: 'push', checkedAt: at });
    await push(a, now);
    await push(b, now + 1);
    await push(a, now + 5);
    await push(b, now + 3); // not late for what b kept (now + 1), older than what a stored
    expect(await latest(hb.id)).toEqual({ lastCheckAt: now + 5, resultAt: now + 5 });
    expect(await journaled()).toBe(4);
  });

  it('reads a state again before moving its streak over a newer check another process stored', async () => {
    const [a, b] = [ingestOn(opened.store), ingestOn(other)];
    const result = (ok: boolean, at: number) =>
      ({ monitorId: relayed.id, ok, error: ok ? null : 'x', source: 'relay', checkedAt: at }) as const;
    await a.record(result(true, now));
    await a.record(result(true, now + 1)); // kept by a from here on
    await b.record(result(true, now + 5));
    // Newer than what a kept, older than what b stored: late, so it counts in no streak.
    await a.record(result(false, now + 3));
    expect(await opened.store.monitors.findById(relayed.id)).toMatchObject({
      state: 'up',
      failureStreak: 0,
      lastCheckAt: now + 5,
    });
  });

  it('takes the locking path for a replayed result, and stores it once', async () => {
    const a = ingestOn(opened.store);
    const result = { monitorId: relayed.id, ok: true, source: 'relay' as const, resultId: 'r1', checkedAt: now };
    await a.record(result);
    await a.record({ ...result, resultId: 'r2', checkedAt: now + 1 });
    expect(await a.record(result)).toMatchObject({ stored: false, reason: 'duplicate' });
    expect(await ingestOn(other).record(result)).toMatchObject({ stored: false, reason: 'duplicate' });
    expect(await journaled()).toBe(2);
  });

  it('recognises a replay of a result folded days ago, by its id and its time', async () => {
    const a = ingestOn(opened.store);
    const old = {
      monitorId: relayed.id,
      ok: true,
      source: 'relay' as const,
      resultId: 'r-old',
      checkedAt: now - 3 * DAY,
    };
    await a.record(old);
    await a.record({ ...old, resultId: 'r-new', checkedAt: now });
    // A read of history folds the journal: both are in `checks` now, each in its own day's partition.
    await opened.store.checks.list(relayed.id, { from: 0, to: now + 1, limit: 10 });
    expect(await journaled()).toBe(0);
    expect(await a.record(old)).toMatchObject({ stored: false, reason: 'duplicate' });
    const stored = await direct.query('select count(*) as n from checks where result_id = $1', ['r-old']);
    expect(Number(stored.rows[0]?.n)).toBe(1);
  });

  it('sees a monitor deleted after its state was kept', async () => {
    const a = ingestOn(opened.store);
    const push = (at: number) => a.record({ monitorId: hb.id, ok: true, source: 'push', checkedAt: at });
    await push(now);
    await push(now + 1);
    await opened.store.monitors.delete(hb.id);
    expect(await push(now + 2)).toMatchObject({ stored: false, reason: 'unknown monitor' });
  });

  it('writes nothing when the monitor moved: the states and the checks go together', async () => {
    const state = opened.store.optimisticIngest;
    if (!state) throw new Error('PostgreSQL offers optimistic ingest');
    const [kept] = [...(await state.read([hb.id])).values()];
    await direct.query('update monitors set failure_streak = 7 where id = $1', [hb.id]);
    const check = { monitorId: hb.id, checkedAt: now, ok: true, degraded: false, latencyMs: null, message: null };
    const row = { ...check, error: null, data: null, source: 'push' as const, resultId: null };
    expect(await state.write([row], [{ ...(kept as NonNullable<typeof kept>), failureStreak: 0 }])).toBe('stale');
    expect(await journaled()).toBe(0);
    expect((await state.read([hb.id])).get(hb.id)).toMatchObject({ failureStreak: 7 });
    expect(await state.write([row], [...(await state.read([hb.id])).values()])).toBe('written');
    expect(await journaled()).toBe(1);
  });
});
