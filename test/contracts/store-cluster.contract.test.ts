// Store contract, cluster mode: instances' heartbeats, and leases taken once (free or lapsed), renewed, lost and released.
import { describe, expect, it } from 'vitest';
import type { Store } from '../../src/store/index.js';
import { openStore } from '../../src/store/open-store.js';
import { dialects } from '../store-dialects.js';
import { describeStore, NOW } from './store-fixtures.js';

const TTL = 15_000;
const names = (n: number) => Array.from({ length: n }, (_, i) => `shard:${String(i).padStart(3, '0')}`);

describeStore('the cluster tables', (store) => {
  it('records heartbeats and lists the instances seen since a time', async () => {
    await store().cluster.heartbeat({ id: 'a', startedAt: NOW, info: { version: '1' } }, NOW);
    await store().cluster.heartbeat({ id: 'b', startedAt: NOW, info: {} }, NOW + 1000);
    await store().cluster.heartbeat({ id: 'a', startedAt: NOW + 5, info: { version: '2' } }, NOW + 3000);
    expect(await store().cluster.listInstances(NOW - 1)).toEqual([
      // A process restarted under the same id: its new start, its new info.
      { id: 'a', startedAt: NOW + 5, seenAt: NOW + 3000, info: { version: '2' } },
      { id: 'b', startedAt: NOW, seenAt: NOW + 1000, info: {} },
    ]);
    expect((await store().cluster.listInstances(NOW + 1000)).map((i) => i.id)).toEqual(['a']);
    expect(await store().cluster.forgetInstances(NOW + 2000)).toBe(1);
    await store().cluster.removeInstance('a');
    expect(await store().cluster.listInstances(0)).toEqual([]);
  });

  it('inserts missing leases free and leaves existing ones as they are', async () => {
    await store().cluster.ensureLeases(names(2));
    expect(await store().cluster.acquire('a', names(1), 1, TTL, NOW)).toEqual(['shard:000']);
    await store().cluster.ensureLeases(names(3));
    expect(await store().cluster.listLeases()).toEqual([
      { name: 'shard:000', holder: 'a', expiresAt: NOW + TTL, acquiredAt: NOW },
      { name: 'shard:001', holder: null, expiresAt: 0, acquiredAt: null },
      { name: 'shard:002', holder: null, expiresAt: 0, acquiredAt: null },
    ]);
  });

  it('acquires up to the limit among the candidates, only free or lapsed leases', async () => {
    await store().cluster.ensureLeases(names(6));
    expect(await store().cluster.acquire('a', names(6), 2, TTL, NOW)).toHaveLength(2);
    expect(await store().cluster.acquire('b', names(6), 10, TTL, NOW)).toHaveLength(4);
    expect(await store().cluster.acquire('c', names(6), 10, TTL, NOW + TTL - 1)).toEqual([]);
    // Not renewed within the TTL: anyone may take them, the old holder too.
    const lapsed = await store().cluster.acquire('c', names(6), 10, TTL, NOW + TTL);
    expect(lapsed).toHaveLength(6);
    expect(new Set((await store().cluster.listLeases()).map((l) => l.holder))).toEqual(new Set(['c']));
    expect(await store().cluster.acquire('a', ['shard:000', 'shard:999'], 10, TTL, NOW + TTL + 1)).toEqual([]);
  });

  it('renews only what the holder still holds, and reports a lease taken by another as lost', async () => {
    await store().cluster.ensureLeases(names(3));
    await store().cluster.acquire('a', names(3), 3, TTL, NOW);
    expect(await store().cluster.renew('a', names(3), TTL, NOW + 3000)).toEqual(names(3));
    // a stalled: its leases lapsed and b took one.
    expect(await store().cluster.acquire('b', ['shard:001'], 1, TTL, NOW + 3000 + TTL)).toEqual(['shard:001']);
    expect(await store().cluster.renew('a', names(3), TTL, NOW + 3000 + TTL + 1)).toEqual(['shard:000', 'shard:002']);
    const leases = await store().cluster.listLeases();
    expect(leases.find((l) => l.name === 'shard:000')).toMatchObject({
      holder: 'a',
      expiresAt: NOW + 3000 + 2 * TTL + 1,
    });
    expect(leases.find((l) => l.name === 'shard:001')).toMatchObject({
      holder: 'b',
      expiresAt: NOW + 3000 + 2 * TTL,
      acquiredAt: NOW + 3000 + TTL,
    });
  });

  it('releases only the holder’s own leases, free at once for another', async () => {
    await store().cluster.ensureLeases(names(3));
    await store().cluster.acquire('a', names(2), 2, TTL, NOW);
    await store().cluster.acquire('b', names(3), 1, TTL, NOW);
    expect(await store().cluster.release('a', names(3))).toBe(2);
    expect(await store().cluster.release('a', [])).toBe(0);
    expect(await store().cluster.acquire('c', names(3), 3, TTL, NOW + 1)).toEqual(['shard:000', 'shard:001']);
    expect((await store().cluster.listLeases()).map((l) => l.holder)).toEqual(['c', 'c', 'b']);
  });
});

for (const dialect of dialects)
  describe.skipIf(!dialect.available)(`leases taken by processes at once on ${dialect.name}`, () => {
    it('never gives one lease to two instances', async () => {
      const opened = await dialect.open();
      const env = opened.env;
      const others: Store[] = [];
      try {
        for (let i = 0; i < 3; i++)
          others.push(
            await openStore({
              dataDir: env.WARDEN_DATA_DIR ?? '.',
              databaseUrl: env.DATABASE_URL || undefined,
              databaseSchema: env.DATABASE_SCHEMA,
            }),
          );
        const all = names(256);
        await opened.store.cluster.ensureLeases(all);
        // Four instances each asking for 100 of 256, several times over, at once.
        const stores = [opened.store, ...others];
        const taken = await Promise.all(
          stores.map(async (store, i) => {
            const mine: string[] = [];
            for (let round = 0; round < 4; round++)
              mine.push(...(await store.cluster.acquire(`i${i}`, all, 25, TTL, NOW)));
            return mine;
          }),
        );
        const flat = taken.flat();
        expect(new Set(flat).size).toBe(flat.length);
        expect(flat.length).toBe(256);
        const leases = await opened.store.cluster.listLeases();
        for (const [i, mine] of taken.entries())
          for (const name of mine) expect(leases.find((l) => l.name === name)?.holder).toBe(`i${i}`);
      } finally {
        for (const other of others) await other.close();
        await opened.cleanup();
      }
    });
  });
