import { describe, expect, it } from 'vitest';
import { SHARD_COUNT, SHARD_LEASES, shardLease, shardOf } from './cluster.js';

describe('shardOf', () => {
  // Processes of different versions share one cluster during a rolling upgrade: a monitor's shard may never change.
  it('is the first four bytes of the SHA-1 of the id, modulo the shard count, asked once or many times', () => {
    const expected = { mon_aaaaaaaaaaaaaaaa: 136, mon_eg5cbk3z55e6pmgk: 189, m1: 76 };
    for (let round = 0; round < 3; round++)
      for (const [id, shard] of Object.entries(expected)) expect(shardOf(id)).toBe(shard);
  });

  it('spreads ids over every shard, each named by its lease', () => {
    const seen = new Set(Array.from({ length: 20_000 }, (_, i) => shardOf(`mon_${i}`)));
    expect(seen.size).toBe(SHARD_COUNT);
    expect(SHARD_LEASES.map((_, i) => shardLease(i))).toEqual(SHARD_LEASES);
  });
});
