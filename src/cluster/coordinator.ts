// Cluster mode's work sharing: every few seconds this instance says it is alive, renews its leases, and takes or hands
// back shards and singletons until it holds its fair share. The leases live in PostgreSQL (store.cluster); no consensus
// of ours, only rows that expire.
import type { Clock } from '../domain/clock.js';
import {
  type ClusterView,
  fairShare,
  LEASE_DEFAULTS,
  SHARD_COUNT,
  SHARD_LEASES,
  SINGLETON_LEASES,
  type Singleton,
  shardLease,
  shardOf,
  singletonLease,
} from '../domain/cluster.js';
import type { Logger } from '../logger.js';
import type { Store } from '../store/index.js';

export interface Coordinator {
  readonly instanceId: string;
  /** The first round (so the scheduler starts with this instance's shards), then one every `roundMs`. */
  start(): Promise<void>;
  /** One round now (or the one under way); tests drive it with an injected clock. */
  round(): Promise<void>;
  /** Hands every lease back (peers take them at their next round, not a TTL later) and leaves the instance table. */
  stop(): Promise<void>;
  /** Whether this instance runs the checks of this monitor: it holds the lease of the monitor's shard. */
  owns(monitorId: string): boolean;
  /** Whether this instance runs this singleton now. */
  holds(singleton: Singleton): boolean;
  /**
   * Called when the shards held change. Shards are handed back only once every listener has settled (within a bound):
   * the scheduler drops their monitors and records their checks in flight first, so the next holder resumes after them.
   */
  onShardsChanged(listener: () => void | Promise<void>): () => void;
  /** This instance, its live peers and its leases, as of the last round (/readyz). */
  status(): ClusterView;
}

export interface CoordinatorDeps {
  store: Store;
  clock: Clock;
  logger: Logger;
  instanceId: string;
  /** What the heartbeat tells of this instance (version, address). */
  info?: () => Record<string, unknown>;
  /** LEASE_DEFAULTS.ttlMs (WARDEN_LEASE_TTL_MS); rounds come `ttlMs / roundsPerTtl` apart unless `roundMs` says. */
  ttlMs?: number;
  roundMs?: number;
  catchUpMs?: number;
  releasePerRound?: number;
}

export function createCoordinator(deps: CoordinatorDeps): Coordinator {
  const { store, clock, logger, instanceId } = deps;
  const ttlMs = deps.ttlMs ?? LEASE_DEFAULTS.ttlMs;
  const roundMs = deps.roundMs ?? Math.round(ttlMs / LEASE_DEFAULTS.roundsPerTtl);
  const catchUpMs = Math.min(roundMs, deps.catchUpMs ?? LEASE_DEFAULTS.catchUpMs);
  const releasePerRound = deps.releasePerRound ?? LEASE_DEFAULTS.releasePerRound;
  /** A lease is given up locally this long before it lapses when it could not be renewed: before a peer may take it. */
  const marginMs = roundMs;
  const startedAt = clock.now();

  /** The leases held, by name, with when each lapses unless renewed. */
  const held = new Map<string, number>();
  const listeners = new Set<() => void | Promise<void>>();
  let peers: { id: string; seenAt: number }[] = [];
  let prepared = false;
  let lastGainAt = startedAt;
  let timer: NodeJS.Timeout | null = null;
  let expiryTimer: NodeJS.Timeout | null = null;
  let rounding: Promise<void> | null = null;
  let stopped = false;
  /** Whether the last round failed: an outage is logged when it starts and when it ends, not every round. */
  let failing = false;

  const heldShards = () => SHARD_LEASES.filter((name) => held.has(name));
  const heldSingletons = () => SINGLETON_LEASES.filter((name) => held.has(name));
  const holding = (name: string) => (held.get(name) ?? 0) > clock.now();

  /** Tells the listeners, waiting for them at most a third of the TTL: a round must not hold up the renewals. */
  async function shardsChanged(): Promise<void> {
    let bound: NodeJS.Timeout | undefined;
    const waited = Promise.allSettled([...listeners].map(async (listener) => listener()));
    const late = new Promise<void>((resolve) => {
      bound = setTimeout(resolve, ttlMs / 3);
    });
    try {
      const settled = await Promise.race([waited, late]);
      if (!settled) logger.warn('cluster: the scheduler took long to let go of shards; handing them back anyway');
      else for (const outcome of settled) if (outcome.status === 'rejected') logger.error({ err: outcome.reason }, 'cluster: a shard listener failed');
    } finally {
      clearTimeout(bound);
    }
  }

  /** Leases whose renewal failed for so long that a peer may take them soon: given up without asking the database. */
  function dropLapsing(now: number): boolean {
    const lapsing = [...held].filter(([, expiresAt]) => expiresAt - marginMs <= now).map(([name]) => name);
    for (const name of lapsing) held.delete(name);
    if (lapsing.length > 0) logger.warn({ leases: lapsing.length }, 'cluster: leases could not be renewed in time; this instance stops their work');
    return lapsing.some((name) => name.startsWith('shard:'));
  }

  /** Renews the leases held; returns whether the shards held changed (one taken over, or one given up meanwhile kept after all). */
  async function renew(now: number): Promise<boolean> {
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
  }

  /** Takes free leases up to the share, or hands back up to `perRound` above it; returns whether it changed any. */
  async function balance(names: readonly string[], mine: string[], share: number, perRound: number, now: number): Promise<'gained' | 'released' | null> {
    if (mine.length < share) {
      const got = await store.cluster.acquire(
        instanceId,
        names.filter((name) => !held.has(name)),
        share - mine.length,
        ttlMs,
        now,
      );
      for (const name of got) held.set(name, now + ttlMs);
      return got.length > 0 ? 'gained' : null;
    }
    if (mine.length > share) {
      const excess = mine.slice(-Math.min(perRound, mine.length - share));
      for (const name of excess) held.delete(name);
      if (excess[0]?.startsWith('shard:')) await shardsChanged();
      await store.cluster.release(instanceId, excess);
      return 'released';
    }
    return null;
  }

  async function runRound(): Promise<void> {
    const now = clock.now();
    let changed = false;
    try {
      // The lease time rides along: `warden cluster status` judges each instance alive by its own.
      await store.cluster.heartbeat({ id: instanceId, startedAt, info: { ...deps.info?.(), leaseTtlMs: ttlMs } }, now);
      if (!prepared) {
        await store.cluster.ensureLeases([...SHARD_LEASES, ...SINGLETON_LEASES]);
        await store.cluster.forgetInstances(now - LEASE_DEFAULTS.forgetAfterMs);
        prepared = true;
      }
      if (await renew(now)) changed = true;
      peers = (await store.cluster.listInstances(now - ttlMs)).map((i) => ({ id: i.id, seenAt: i.seenAt }));
      if (!peers.some((p) => p.id === instanceId)) peers.push({ id: instanceId, seenAt: now });
      if (stopped) return;
      const before = held.size;
      const shards = await balance(SHARD_LEASES, heldShards(), fairShare(SHARD_COUNT, peers.length), releasePerRound, now);
      if (shards === 'gained') {
        changed = true;
        lastGainAt = now;
      }
      await balance(SINGLETON_LEASES, heldSingletons(), fairShare(SINGLETON_LEASES.length, peers.length), 1, now);
      if (held.size !== before)
        logger.info({ instances: peers.length, shards: heldShards().length, singletons: heldSingletons().map((n) => n.slice('singleton:'.length)) }, 'cluster: leases moved');
      if (failing) logger.info('cluster: lease rounds work again');
      failing = false;
    } catch (error) {
      if (!failing) logger.error({ err: error }, 'cluster: a lease round failed; leases are kept until they would lapse');
      failing = true;
      if (dropLapsing(clock.now())) changed = true;
    } finally {
      if (changed) await shardsChanged();
    }
  }

  function round(): Promise<void> {
    rounding ??= runRound().finally(() => {
      rounding = null;
    });
    return rounding;
  }

  /** Quicker rounds while shards are coming to this instance (it just joined, or a peer is handing them over). */
  function nextDelay(): number {
    const wanting = heldShards().length < fairShare(SHARD_COUNT, peers.length);
    return wanting && clock.now() - lastGainAt < ttlMs ? catchUpMs : roundMs;
  }

  function schedule(): void {
    if (stopped) return;
    timer = setTimeout(() => {
      timer = null;
      round().finally(schedule);
    }, nextDelay());
    timer.unref();
  }

  return {
    instanceId,
    async start() {
      await round();
      logger.info({ instance: instanceId, instances: peers.length, shards: heldShards().length, ttlMs, roundMs }, 'cluster: coordinator started');
      schedule();
      // Apart from the rounds: a round stuck on a database that does not answer must not keep leases past their time.
      expiryTimer = setInterval(() => {
        if (dropLapsing(clock.now())) shardsChanged().catch(() => {});
      }, catchUpMs);
      expiryTimer.unref();
    },
    round,
    async stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
      if (expiryTimer) clearInterval(expiryTimer);
      await rounding;
      const names = [...held.keys()];
      held.clear();
      if (names.some((name) => name.startsWith('shard:'))) await shardsChanged();
      try {
        await store.cluster.release(instanceId, names);
        await store.cluster.removeInstance(instanceId);
        logger.info({ leases: names.length }, 'cluster: leases handed back');
      } catch (error) {
        logger.warn({ err: error }, 'cluster: handing leases back failed; peers take them when they lapse');
      }
    },
    owns: (monitorId) => holding(shardLease(shardOf(monitorId))),
    holds: (singleton) => holding(singletonLease(singleton)),
    onShardsChanged(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    status: () => ({
      instance: instanceId,
      peers: peers.map((p) => ({ ...p })),
      shards: heldShards().length,
      leases: [...held].map(([name, expiresAt]) => ({ name, expiresAt })).sort((a, b) => (a.name < b.name ? -1 : 1)),
    }),
  };
}
