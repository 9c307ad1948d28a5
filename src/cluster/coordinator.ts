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
  shardOf,
  singletonLease,
} from '../domain/cluster.js';
import type { Logger } from '../logger.js';
import type { Store } from '../store/index.js';
import { createLeaseBook } from './lease-book.js';

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
  const { ttlMs, roundMs, catchUpMs, releasePerRound } = roundTiming(deps);
  /** A lease is given up locally this long before it lapses when it could not be renewed: before a peer may take it. */
  const marginMs = roundMs;
  const startedAt = clock.now();

  const listeners = new Set<() => void | Promise<void>>();
  const leases = createLeaseBook({
    store,
    logger,
    instanceId,
    ttlMs,
    marginMs,
    // Shards handed back go to the database once the scheduler has let go of them, however long that takes (a round
    // waits a third of the TTL for it, later rounds hand them back), and at most two TTLs after.
    beforeRelease: () => settle([...listeners], logger),
    waitMs: ttlMs / 3,
    leaveAtMostMs: 2 * ttlMs,
    now: () => clock.now(),
  });
  const held = leases.held;
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
  const holding = (name: string) => leases.holding(name, clock.now());

  /** Tells the listeners, waiting for them at most a third of the TTL: a round must not hold up the renewals. */
  function shardsChanged(): Promise<void> {
    return settleWithin([...listeners], ttlMs / 3, logger);
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
      if (await leases.renew(now)) changed = true;
      peers = await livePeers(store, instanceId, now - ttlMs, now);
      if (stopped) return;
      const before = held.size;
      const shards = await leases.balance(SHARD_LEASES, fairShare(SHARD_COUNT, peers.length), releasePerRound, now);
      if (shards === 'gained') {
        changed = true;
        lastGainAt = now;
      }
      await leases.balance(SINGLETON_LEASES, fairShare(SINGLETON_LEASES.length, peers.length), 1, now);
      if (held.size !== before) logger.info({ instances: peers.length, ...heldSummary(held) }, 'cluster: leases moved');
      if (failing) logger.info('cluster: lease rounds work again');
      failing = false;
    } catch (error) {
      if (!failing)
        logger.error({ err: error }, 'cluster: a lease round failed; leases are kept until they would lapse');
      failing = true;
      if (leases.dropLapsing(clock.now())) changed = true;
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

  /** The next round; quicker while shards are coming to this instance (it just joined, or a peer is handing them over). */
  function schedule(): void {
    if (stopped) return;
    const wanting = heldShards().length < fairShare(SHARD_COUNT, peers.length);
    timer = setTimeout(
      () => {
        timer = null;
        round().finally(schedule);
      },
      wanting && clock.now() - lastGainAt < ttlMs ? catchUpMs : roundMs,
    );
    timer.unref();
  }

  return {
    instanceId,
    async start() {
      await round();
      logger.info(
        { instance: instanceId, instances: peers.length, shards: heldShards().length, ttlMs, roundMs },
        'cluster: coordinator started',
      );
      schedule();
      // Apart from the rounds: a round stuck on a database that does not answer must not keep leases past their time.
      expiryTimer = setInterval(() => {
        if (leases.dropLapsing(clock.now())) shardsChanged().catch(() => {});
      }, catchUpMs);
      expiryTimer.unref();
    },
    round,
    async stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
      if (expiryTimer) clearInterval(expiryTimer);
      await rounding;
      const names = [...held.keys(), ...leases.leaving];
      held.clear();
      if (names.some((name) => name.startsWith('shard:'))) await shardsChanged();
      await handBack(store, instanceId, names, logger);
    },
    owns: (monitorId) => holding(SHARD_LEASES[shardOf(monitorId)] as string),
    holds: (singleton) => holding(singletonLease(singleton)),
    onShardsChanged(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    status: () => view(instanceId, peers, held),
  };
}

/** The lease TTL, the time between rounds (shorter while catching up) and the shards given up per round. */
function roundTiming(deps: CoordinatorDeps): {
  ttlMs: number;
  roundMs: number;
  catchUpMs: number;
  releasePerRound: number;
} {
  const ttlMs = deps.ttlMs ?? LEASE_DEFAULTS.ttlMs;
  const roundMs = deps.roundMs ?? Math.round(ttlMs / LEASE_DEFAULTS.roundsPerTtl);
  const catchUpMs = Math.min(roundMs, deps.catchUpMs ?? LEASE_DEFAULTS.catchUpMs);
  const releasePerRound = deps.releasePerRound ?? LEASE_DEFAULTS.releasePerRound;
  return { ttlMs, roundMs, catchUpMs, releasePerRound };
}

/** The instances seen since `since`, this one always among them (its heartbeat may not be read back yet). */
async function livePeers(
  store: Store,
  instanceId: string,
  since: number,
  now: number,
): Promise<{ id: string; seenAt: number }[]> {
  const peers = (await store.cluster.listInstances(since)).map((i) => ({ id: i.id, seenAt: i.seenAt }));
  if (!peers.some((p) => p.id === instanceId)) peers.push({ id: instanceId, seenAt: now });
  return peers;
}

/** How many shards this instance holds and which singletons, for the log. */
function heldSummary(held: ReadonlyMap<string, unknown>): { shards: number; singletons: string[] } {
  return {
    shards: SHARD_LEASES.filter((name) => held.has(name)).length,
    singletons: SINGLETON_LEASES.filter((name) => held.has(name)).map((n) => n.slice('singleton:'.length)),
  };
}

/** Calls the listeners and waits for them to settle, at most `boundMs`: logs the late and the failed. */
/** Runs the listeners and waits for them all; a failure is logged. */
async function settle(listeners: (() => void | Promise<void>)[], logger: Logger): Promise<void> {
  for (const outcome of await Promise.allSettled(listeners.map(async (listener) => listener())))
    if (outcome.status === 'rejected') logger.error({ err: outcome.reason }, 'cluster: a shard listener failed');
}

async function settleWithin(listeners: (() => void | Promise<void>)[], boundMs: number, logger: Logger): Promise<void> {
  let bound: NodeJS.Timeout | undefined;
  const waited = Promise.allSettled(listeners.map(async (listener) => listener()));
  const late = new Promise<void>((resolve) => {
    bound = setTimeout(resolve, boundMs);
  });
  try {
    const settled = await Promise.race([waited, late]);
    if (!settled) logger.warn('cluster: the scheduler took long to follow a change of its shards; the round goes on');
    else
      for (const outcome of settled)
        if (outcome.status === 'rejected') logger.error({ err: outcome.reason }, 'cluster: a shard listener failed');
  } finally {
    clearTimeout(bound);
  }
}

/** Hands the leases back and leaves the instance table; peers take what this could not hand back when it lapses. */
async function handBack(store: Store, instanceId: string, names: string[], logger: Logger): Promise<void> {
  try {
    await store.cluster.release(instanceId, names);
    await store.cluster.removeInstance(instanceId);
    logger.info({ leases: names.length }, 'cluster: leases handed back');
  } catch (error) {
    logger.warn({ err: error }, 'cluster: handing leases back failed; peers take them when they lapse');
  }
}

function view(instance: string, peers: { id: string; seenAt: number }[], held: Map<string, number>): ClusterView {
  return {
    instance,
    peers: peers.map((p) => ({ ...p })),
    shards: SHARD_LEASES.filter((name) => held.has(name)).length,
    leases: [...held].map(([name, expiresAt]) => ({ name, expiresAt })).sort((a, b) => (a.name < b.name ? -1 : 1)),
  };
}
