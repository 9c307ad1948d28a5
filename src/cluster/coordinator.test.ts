import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { dialects, type OpenedStore } from '../../test/store-dialects.js';
import { SHARD_COUNT, SINGLETONS, shardOf } from '../domain/cluster.js';
import { createLogger } from '../logger.js';
import type { Store } from '../store/index.js';
import { type Coordinator, type CoordinatorDeps, createCoordinator } from './coordinator.js';

const T0 = Date.UTC(2026, 10, 20, 12);
const logger = createLogger('silent');

describe('shards of monitors', () => {
  it('puts a monitor in the same shard everywhere, every monitor in one of 256', () => {
    // SHA-1 of the id: a value that must never change, or a rolling upgrade would run some monitors twice.
    expect(shardOf('mon_a')).toBe(shardOf('mon_a'));
    expect(shardOf('01JD5QK7V1ZP0Z9Y6X5W4V3T2S')).toBe(38);
    const counts = new Array<number>(SHARD_COUNT).fill(0);
    for (let i = 0; i < 25_600; i++) counts[shardOf(`mon_${i}`)]! += 1;
    expect(Math.min(...counts)).toBeGreaterThan(50);
    expect(Math.max(...counts)).toBeLessThan(160);
  });
});

for (const dialect of dialects) {
  describe.skipIf(!dialect.available)(`the lease coordinator on ${dialect.name}`, () => {
    let opened: OpenedStore;
    let now = T0;
    const clock = { now: () => now };
    const started: Coordinator[] = [];
    const coordinator = (instanceId: string, deps: Partial<CoordinatorDeps> = {}) => {
      const made = createCoordinator({ store: opened.store, clock, logger, instanceId, ...deps });
      started.push(made);
      return made;
    };
    const leasesOf = (c: Coordinator) => new Set(c.status().leases.map((l) => l.name));
    const shardsOf = (c: Coordinator) => c.status().shards;
    const singletonsOf = (c: Coordinator) => SINGLETONS.filter((s) => c.holds(s));

    beforeEach(async () => {
      now = T0;
      opened = await dialect.open();
    });
    afterEach(async () => {
      for (const c of started.splice(0)) await c.stop();
      await opened.cleanup();
    });

    it('takes every shard and singleton when alone', async () => {
      const a = coordinator('a');
      await a.round();
      expect(shardsOf(a)).toBe(SHARD_COUNT);
      expect(singletonsOf(a)).toEqual([...SINGLETONS]);
      expect(a.owns('mon_anything')).toBe(true);
      expect(a.status()).toMatchObject({ instance: 'a', peers: [{ id: 'a', seenAt: T0 }], shards: 256 });
      expect(a.status().leases.every((l) => l.expiresAt === T0 + 15_000)).toBe(true);
    });

    it('moves shards gradually to an instance that joins, never holding one twice, until each has its share', async () => {
      const a = coordinator('a');
      const b = coordinator('b');
      await a.round();
      const handedBack: string[][] = [];
      let before = leasesOf(a);
      a.onShardsChanged(async () => {
        // The listener runs before the database hears of it: the scheduler lets go first, then the lease is freed.
        const released = [...before].filter((name) => name.startsWith('shard:') && !leasesOf(a).has(name));
        before = leasesOf(a);
        const stored = await opened.store.cluster.listLeases();
        handedBack.push(released.filter((name) => stored.find((l) => l.name === name)?.holder === 'a'));
      });
      for (let round = 0; round < 12; round++) {
        now += 3_000;
        await b.round();
        await a.round();
        const both = [...leasesOf(a)].filter((name) => leasesOf(b).has(name));
        expect(both).toEqual([]);
      }
      expect(shardsOf(a)).toBe(128);
      expect(shardsOf(b)).toBe(128);
      // At most 64 a round: two rounds for 128.
      expect(handedBack.map((names) => names.length)).toEqual([64, 64]);
      expect(singletonsOf(a).length + singletonsOf(b).length).toBe(5);
      expect(Math.min(singletonsOf(a).length, singletonsOf(b).length)).toBe(2);
      const monitor = 'mon_x';
      expect(a.owns(monitor)).not.toBe(b.owns(monitor));
    });

    it('spreads the singletons: at most ceil(5 / instances) each', async () => {
      const cs = ['a', 'b', 'c'].map((id) => coordinator(id));
      for (let round = 0; round < 15; round++) {
        now += 3_000;
        for (const c of cs) await c.round();
      }
      expect(cs.map((c) => singletonsOf(c).length).sort()).toEqual([1, 2, 2]);
      expect(cs.map(shardsOf).sort()).toEqual([84, 86, 86]);
    });

    it('takes over the shards of an instance that stopped renewing once they lapse, not before', async () => {
      const a = coordinator('a');
      const b = coordinator('b');
      for (let round = 0; round < 12; round++) {
        now += 3_000;
        await a.round();
        await b.round();
      }
      expect(shardsOf(a)).toBe(128);
      // b is killed (-9): no more rounds, nothing handed back.
      const diedAt = now;
      now = diedAt + 12_000;
      await a.round();
      expect(shardsOf(a)).toBe(128);
      now = diedAt + 15_000;
      await a.round();
      expect(shardsOf(a)).toBe(256);
      expect(singletonsOf(a)).toEqual([...SINGLETONS]);
      expect(a.status().peers.map((p) => p.id)).toEqual(['a']);
    });

    it('hands everything back on stop: the peer takes it at its next round', async () => {
      const a = coordinator('a');
      const b = coordinator('b');
      for (let round = 0; round < 12; round++) {
        now += 3_000;
        await a.round();
        await b.round();
      }
      let told = 0;
      b.onShardsChanged(() => {
        told++;
      });
      await b.stop();
      expect(told).toBe(1);
      expect(shardsOf(b)).toBe(0);
      expect((await opened.store.cluster.listLeases()).every((l) => l.holder !== 'b')).toBe(true);
      expect((await opened.store.cluster.listInstances(0)).map((i) => i.id)).toEqual(['a']);
      now += 3_000;
      await a.round();
      expect(shardsOf(a)).toBe(256);
    });

    it('hands shards over only once the scheduler has recorded their checks in flight, however long that takes', async () => {
      // A lease TTL of 300 ms: a round waits 100 ms (real time) for the scheduler, and hands back after 600 ms at most.
      const a = coordinator('a', { ttlMs: 300, releasePerRound: 128 });
      const b = coordinator('b', { ttlMs: 300 });
      await a.round();
      await b.round();
      let letGo: () => void = () => {};
      a.onShardsChanged(() => new Promise<void>((resolve) => (letGo = resolve)));
      const heldBy = async (holder: string) =>
        (await opened.store.cluster.listLeases()).filter((l) => l.name.startsWith('shard:') && l.holder === holder)
          .length;
      now += 100;
      await a.round();
      // a stopped working on half its shards, but the database still has them as a's: b cannot take them yet.
      expect(shardsOf(a)).toBe(128);
      expect(await heldBy('a')).toBe(256);
      for (let round = 0; round < 2; round++) {
        now += 100;
        await b.round();
        await a.round();
        expect(shardsOf(b)).toBe(0);
        expect(await heldBy('a')).toBe(256);
      }
      // The scheduler has let go: the next round hands them back, and b takes them at its next.
      letGo();
      now += 100;
      await a.round();
      expect(await heldBy('a')).toBe(128);
      now += 100;
      await b.round();
      expect(shardsOf(b)).toBe(128);
      expect([...Array(SHARD_COUNT).keys()].every((shard) => shardsOf(a) + shardsOf(b) === 256 && shard >= 0)).toBe(
        true,
      );
    });

    it('hands shards back anyway when the scheduler has not let go of them within two lease TTLs', async () => {
      const a = coordinator('a', { ttlMs: 300, releasePerRound: 128 });
      const b = coordinator('b', { ttlMs: 300 });
      await a.round();
      await b.round();
      a.onShardsChanged(() => new Promise<void>(() => {}));
      for (let round = 0; round < 6; round++) {
        now += 100;
        await a.round();
        await b.round();
        expect(shardsOf(b)).toBe(0);
      }
      now += 100;
      await a.round();
      await b.round();
      expect(shardsOf(b)).toBe(128);
    });

    it('stops the work of leases it cannot renew before a peer may take them', async () => {
      let failing = false;
      const flaky: Store = {
        ...opened.store,
        cluster: new Proxy(opened.store.cluster, {
          get: (target, key) =>
            failing ? () => Promise.reject(new Error('database unreachable')) : Reflect.get(target, key),
        }),
      };
      const a = coordinator('a', { store: flaky });
      await a.round();
      let told = 0;
      a.onShardsChanged(() => {
        told++;
      });
      failing = true;
      now = T0 + 9_000;
      await a.round();
      expect(shardsOf(a)).toBe(256);
      // A round before the lease would lapse: peers may take it at 15 s, this instance lets go at 12 s.
      now = T0 + 12_000;
      await a.round();
      expect(shardsOf(a)).toBe(0);
      expect(a.owns('mon_x')).toBe(false);
      expect(told).toBe(1);
      failing = false;
      now = T0 + 15_000;
      await a.round();
      expect(shardsOf(a)).toBe(256);
    });

    it('reports leases a peer took over (its clock ran ahead) as lost', async () => {
      const a = coordinator('a');
      await a.round();
      let ahead = T0;
      const b = coordinator('b', { clock: { now: () => ahead } });
      ahead = T0 + 20_000;
      await b.round();
      expect(shardsOf(b)).toBe(256);
      let told = 0;
      a.onShardsChanged(() => {
        told++;
      });
      now = T0 + 3_000;
      await a.round();
      expect(told).toBe(1);
      expect(shardsOf(a)).toBe(0);
      expect(a.owns('mon_x')).toBe(false);
    });

    it('keeps rounds going on its own timer, and a stopped peer’s share moves within a round', async () => {
      const real = { now: () => Date.now() };
      const a = coordinator('a', { clock: real, ttlMs: 1_000 });
      const b = coordinator('b', { clock: real, ttlMs: 1_000 });
      await a.start();
      await b.start();
      await vi.waitFor(() => expect([shardsOf(a), shardsOf(b)]).toEqual([128, 128]), { timeout: 5_000, interval: 50 });
      await b.stop();
      await vi.waitFor(() => expect(shardsOf(a)).toBe(256), { timeout: 1_000, interval: 20 });
    });
  });
}
