// The cluster as the database holds it (`warden cluster status`): the instances, how many shards each holds, and who
// runs each singleton until when. Read from any process, a member of the cluster or not.
import { type ClusterStatus, LEASE_DEFAULTS, SHARD_LEASES, SINGLETON_LEASES } from '../../domain/cluster.js';
import type { ServiceContext } from '../context.js';

export async function clusterStatus(ctx: ServiceContext): Promise<ClusterStatus> {
  const now = ctx.clock.now();
  const [instances, leases] = await Promise.all([
    ctx.store.cluster.listInstances(now - LEASE_DEFAULTS.forgetAfterMs),
    ctx.store.cluster.listLeases(),
  ]);
  const held = leases.filter((l) => l.holder !== null && l.expiresAt > now);
  const shardNames = new Set(SHARD_LEASES);
  const shardsOf = new Map<string, number>();
  for (const lease of held)
    if (shardNames.has(lease.name))
      shardsOf.set(lease.holder as string, (shardsOf.get(lease.holder as string) ?? 0) + 1);
  return {
    now,
    instances: instances.map((i) => ({
      id: i.id,
      startedAt: i.startedAt,
      seenAt: i.seenAt,
      // Each instance judged by its own lease time (WARDEN_LEASE_TTL_MS), which its heartbeat tells.
      live: i.seenAt > now - ttlOf(i.info),
      shards: shardsOf.get(i.id) ?? 0,
      info: i.info,
    })),
    singletons: SINGLETON_LEASES.map((name) => {
      const lease = held.find((l) => l.name === name);
      return {
        name: name.slice('singleton:'.length),
        holder: lease?.holder ?? null,
        expiresAt: lease?.expiresAt ?? null,
      };
    }),
    unheldShards: SHARD_LEASES.length - [...shardsOf.values()].reduce((sum, n) => sum + n, 0),
  };
}

function ttlOf(info: Record<string, unknown>): number {
  const ttl = info.leaseTtlMs;
  return typeof ttl === 'number' && Number.isFinite(ttl) && ttl > 0 ? ttl : LEASE_DEFAULTS.ttlMs;
}
