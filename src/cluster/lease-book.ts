// The leases one instance holds, with when each lapses unless renewed, and the three ways they change against the
// store: renewed, balanced up or down to a fair share, or given up locally when they could not be renewed in time.
import type { Logger } from '../logger.js';
import type { Store } from '../store/index.js';

export interface LeaseBook {
  /** The leases held, by name, with when each lapses unless renewed. */
  readonly held: Map<string, number>;
  /**
   * Shards given up here whose work is still being recorded (a check in flight, its result not committed): renewed,
   * not worked on, and handed back in the database once the scheduler has let go of them, so that the next holder
   * reads their latest checks and resumes after them instead of checking them again.
   */
  readonly leaving: ReadonlySet<string>;
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
  /** Before shards are handed back: the scheduler lets go of their monitors (resolves once it has; never rejects). */
  beforeRelease: () => Promise<void>;
  /** How long a round waits for `beforeRelease`; past it the shards wait as `leaving` for a later round. */
  waitMs: number;
  /** Shards kept leaving longer than this are handed back anyway (a scheduler that never lets go must not strand them). */
  leaveAtMostMs: number;
  now: () => number;
}): LeaseBook {
  const { store, logger, instanceId, ttlMs } = deps;
  const held = new Map<string, number>();
  const leaving = new Set<string>();
  let letGo = false;
  let leavingSince = 0;
  /** Which batch of leaving shards the scheduler's letting go is for (one handed back overdue may let go later). */
  let batch = 0;

  /** Hands the leaving shards back once the scheduler has let go of them (or waited too long); whether it did. */
  async function handBackLeaving(): Promise<boolean> {
    if (leaving.size === 0) return false;
    const overdue = deps.now() - leavingSince >= deps.leaveAtMostMs;
    if (!letGo && !overdue) return false;
    if (!letGo)
      logger.warn(
        { leases: leaving.size },
        'cluster: the scheduler took long to let go of shards; handing them back anyway',
      );
    const names = [...leaving];
    await store.cluster.release(instanceId, names);
    for (const name of names) leaving.delete(name);
    return true;
  }

  return {
    held,
    leaving,
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
      const asked = [...held.keys(), ...leaving];
      if (asked.length === 0) return false;
      const kept = new Set(await store.cluster.renew(instanceId, asked, ttlMs, now));
      // A leaving shard that lapsed meanwhile is another's already: nothing to hand back.
      for (const name of leaving) if (!kept.has(name)) leaving.delete(name);
      const lost = asked.filter((name) => !kept.has(name) && held.has(name));
      for (const name of lost) held.delete(name);
      let regained = false;
      for (const name of kept) {
        if (leaving.has(name)) continue;
        if (!held.has(name)) regained = true;
        held.set(name, now + ttlMs);
      }
      if (lost.length > 0) logger.warn({ leases: lost }, 'cluster: leases were taken over by another instance');
      return regained || lost.some((name) => name.startsWith('shard:'));
    },
    async balance(names, share, perRound, now) {
      // Shards left in an earlier round go back once the scheduler has let go of them; meanwhile no more are left.
      const handedBack = names.some((name) => leaving.has(name)) && (await handBackLeaving());
      const mine = names.filter((name) => held.has(name));
      if (mine.length < share) {
        const free = names.filter((name) => !held.has(name) && !leaving.has(name));
        const got = await store.cluster.acquire(instanceId, free, share - mine.length, ttlMs, now);
        for (const name of got) held.set(name, now + ttlMs);
        return got.length > 0 ? 'gained' : handedBack ? 'released' : null;
      }
      if (names.some((name) => leaving.has(name))) return handedBack ? 'released' : null;
      if (mine.length > share) {
        const excess = mine.slice(-Math.min(perRound, mine.length - share));
        for (const name of excess) held.delete(name);
        if (!excess[0]?.startsWith('shard:')) {
          await store.cluster.release(instanceId, excess);
          return 'released';
        }
        for (const name of excess) leaving.add(name);
        letGo = false;
        leavingSince = deps.now();
        const current = ++batch;
        const letting = deps.beforeRelease().then(() => {
          if (current === batch) letGo = true;
        });
        let bound: NodeJS.Timeout | undefined;
        await Promise.race([letting, new Promise<void>((resolve) => (bound = setTimeout(resolve, deps.waitMs)))]);
        clearTimeout(bound);
        if (!letGo)
          logger.info(
            { leases: excess.length },
            'cluster: shards handed over once the scheduler has recorded their checks in flight',
          );
        await handBackLeaving();
        return 'released';
      }
      return null;
    },
  };
}
