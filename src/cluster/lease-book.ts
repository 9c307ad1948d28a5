// The leases one instance holds, with when each lapses unless renewed, and the three ways they change against the
// store: renewed, balanced up or down to a fair share, or given up locally when they could not be renewed in time.
import type { Logger } from '../logger.js';
import type { Store } from '../store/index.js';

export interface LeaseBook {
  /** The leases held, by name, with when each lapses unless renewed. */
  readonly held: Map<string, number>;
  /** Whether the lease is held and not lapsed at `now`. */
  holding(name: string, now: number): boolean;
  /** Leases whose renewal failed for so long that a peer may take them soon: given up without asking the database. */
  dropLapsing(now: number): boolean;
  /** Renews the leases held; returns whether the shards held changed (one taken over, or one given up meanwhile kept after all). */
  renew(now: number): Promise<boolean>;
  /**
   * Takes free leases of `names` up to the share, or hands back up to `perRound` above it (after `beforeRelease` when
   * they are shards); returns whether it changed any.
   */
  balance(
    names: readonly string[],
    share: number,
    perRound: number,
    now: number,
  ): Promise<'gained' | 'released' | null>;
}

export function createLeaseBook(deps: {
  store: Store;
  logger: Logger;
  instanceId: string;
  ttlMs: number;
  /** A lease is given up locally this long before it lapses when it could not be renewed: before a peer may take it. */
  marginMs: number;
  /** Before shards are handed back: the scheduler lets go of their monitors. */
  beforeRelease: () => Promise<void>;
}): LeaseBook {
  const { store, logger, instanceId, ttlMs } = deps;
  const held = new Map<string, number>();
  return {
    held,
    holding: (name, now) => (held.get(name) ?? 0) > now,
    dropLapsing(now) {
      const lapsing = [...held].filter(([, expiresAt]) => expiresAt - deps.marginMs <= now).map(([name]) => name);
      for (const name of lapsing) held.delete(name);
      if (lapsing.length > 0)
        logger.warn(
          { leases: lapsing.length },
          'cluster: leases could not be renewed in time; this instance stops their work',
        );
      return lapsing.some((name) => name.startsWith('shard:'));
    },
    async renew(now) {
      const asked = [...held.keys()];
      if (asked.length === 0) return false;
      const kept = new Set(await store.cluster.renew(instanceId, asked, ttlMs, now));
      const lost = asked.filter((name) => !kept.has(name));
      for (const name of lost) held.delete(name);
      let regained = false;
      for (const name of kept) {
        if (!held.has(name)) regained = true;
        held.set(name, now + ttlMs);
      }
      if (lost.length > 0) logger.warn({ leases: lost }, 'cluster: leases were taken over by another instance');
      return regained || lost.some((name) => name.startsWith('shard:'));
    },
    async balance(names, share, perRound, now) {
      const mine = names.filter((name) => held.has(name));
      if (mine.length < share) {
        const free = names.filter((name) => !held.has(name));
        const got = await store.cluster.acquire(instanceId, free, share - mine.length, ttlMs, now);
        for (const name of got) held.set(name, now + ttlMs);
        return got.length > 0 ? 'gained' : null;
      }
      if (mine.length > share) {
        const excess = mine.slice(-Math.min(perRound, mine.length - share));
        for (const name of excess) held.delete(name);
        if (excess[0]?.startsWith('shard:')) await deps.beforeRelease();
        await store.cluster.release(instanceId, excess);
        return 'released';
      }
      return null;
    },
  };
}
