// Cluster mode's rules, without I/O: the shards the edge monitors are split into, the singleton runners, and each
// instance's fair share of both.
import { createHash } from 'node:crypto';

/** Edge monitors are shared out in this many shards, each a lease (`shard:000`…`shard:255`). */
export const SHARD_COUNT = 256;

/** The runners that must run on one instance only, each under its own lease. */
export const SINGLETONS = [
  'watchdog',
  'retention',
  'domain-recheck',
  'maintenance-notices',
  'notify-reminders',
] as const;
export type Singleton = (typeof SINGLETONS)[number];

/** The lease names: every shard, then every singleton. */
export const SHARD_LEASES: readonly string[] = Array.from({ length: SHARD_COUNT }, (_, i) => shardLease(i));
export const SINGLETON_LEASES: readonly string[] = SINGLETONS.map(singletonLease);

/** Timings of the leases (docs/cluster.md); WARDEN_LEASE_TTL_MS changes the TTL, the rest follows from it. */
export const LEASE_DEFAULTS = {
  /** A lease not renewed within this is free for another instance; an instance not seen within it is gone. */
  ttlMs: 15_000,
  /** Rounds (heartbeat, renewal, rebalancing) per TTL: renewing every 3 s keeps a 15 s lease through four missed rounds. */
  roundsPerTtl: 5,
  /** Shards an instance over its share hands back per round: the move to a new instance is gradual. */
  releasePerRound: 64,
  /** While shards are moving to it, an instance under its share looks again this often (the handover's gap). */
  catchUpMs: 500,
  /** An instance not seen for this long is deleted from the table (a restarted process has a new id). */
  forgetAfterMs: 24 * 60 * 60 * 1000,
} as const;

export function shardLease(shard: number): string {
  return `shard:${String(shard).padStart(3, '0')}`;
}

export function singletonLease(name: Singleton): string {
  return `singleton:${name}`;
}

/** Shards remembered at most (an id and a small integer each: a few MiB); past it the memo starts over. */
export const SHARD_MEMO_MAX = 500_000;
const shards = new Map<string, number>();

/**
 * A monitor's shard: stable across processes, versions and restarts (the first 4 bytes of the SHA-1 of its id).
 * Remembered: each edge runner asks it of every edge monitor at each reload, and at 100,000 monitors hashing them all
 * held the event loop for a quarter of a second every minute (the checks due meanwhile started late).
 */
export function shardOf(monitorId: string): number {
  let shard = shards.get(monitorId);
  if (shard === undefined) {
    shard = createHash('sha1').update(monitorId).digest().readUInt32BE(0) % SHARD_COUNT;
    if (shards.size >= SHARD_MEMO_MAX) shards.clear();
    shards.set(monitorId, shard);
  }
  return shard;
}

/** How many of `total` leases one of `live` instances may hold: rounded up, so together they hold them all. */
export function fairShare(total: number, live: number): number {
  return Math.ceil(total / Math.max(1, live));
}

/** What one instance tells of the cluster (/readyz): itself, the peers it saw alive, and the leases it holds. */
export interface ClusterView {
  instance: string;
  /** Live instances (this one included), as of the last round. */
  peers: { id: string; seenAt: number }[];
  /** How many shards it holds. */
  shards: number;
  /** Every lease it holds, shards and singletons, with when each lapses unless renewed. */
  leases: { name: string; expiresAt: number }[];
}

/** The whole cluster as the database holds it (`warden cluster status`). */
export interface ClusterStatus {
  now: number;
  instances: {
    id: string;
    startedAt: number;
    seenAt: number;
    live: boolean;
    shards: number;
    info: Record<string, unknown>;
  }[];
  singletons: { name: string; holder: string | null; expiresAt: number | null }[];
  /** Shards without a live holder: free, or lapsed and waiting to be taken. */
  unheldShards: number;
}
