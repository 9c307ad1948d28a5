// Cluster mode's tables: the instances' heartbeats, and the leases (shards of the edge monitors, singleton runners)
// each held by one instance until it stops renewing them.

import type { Db } from '../tables.js';

/** A process of the cluster as its last heartbeat left it. */
export interface ClusterInstance {
  id: string;
  startedAt: number;
  seenAt: number;
  /** What it told of itself: version, address. */
  info: Record<string, unknown>;
}

/** A lease: held by `holder` until `expiresAt` unless renewed; free when the holder is null. */
export interface ClusterLease {
  name: string;
  holder: string | null;
  expiresAt: number;
  acquiredAt: number | null;
}

export interface ClusterRepository {
  /** Records the instance alive at `now` (inserted on its first heartbeat, its start and info replaced on each). */
  heartbeat(instance: { id: string; startedAt: number; info: Record<string, unknown> }, now: number): Promise<void>;
  /** Instances seen after `seenAfter`, by id. */
  listInstances(seenAfter: number): Promise<ClusterInstance[]>;
  /** Deletes an instance's row: a graceful stop, so peers count it gone at once. */
  removeInstance(id: string): Promise<void>;
  /** Deletes instances not seen since `seenBefore` (restarted processes come back under new ids); returns how many. */
  forgetInstances(seenBefore: number): Promise<number>;
  /** Inserts the leases missing among these names, free. */
  ensureLeases(names: readonly string[]): Promise<void>;
  /**
   * Takes up to `limit` of these leases that are free or lapsed (expired at or before `now`) for `holder` until
   * `now + ttlMs`, and returns their names. Two instances never take the same lease (PostgreSQL: FOR UPDATE SKIP
   * LOCKED, so they pass over each other's rows instead of waiting; SQLite: one write statement).
   */
  acquire(holder: string, candidates: readonly string[], limit: number, ttlMs: number, now: number): Promise<string[]>;
  /** Extends the leases among `names` still held by `holder` to `now + ttlMs`; returns those (one missing was taken by another). */
  renew(holder: string, names: readonly string[], ttlMs: number, now: number): Promise<string[]>;
  /** Frees the leases among `names` held by `holder`; returns how many. */
  release(holder: string, names: readonly string[]): Promise<number>;
  /** Every lease, by name. */
  listLeases(): Promise<ClusterLease[]>;
}

export function clusterRepository(db: Db, { locksRows }: { locksRows: boolean }): ClusterRepository {
  return {
    async heartbeat(instance, now) {
      const info = JSON.stringify(instance.info);
      await db
        .insertInto('cluster_instances')
        .values({ id: instance.id, started_at: instance.startedAt, seen_at: now, info })
        // A process restarted under the same id (WARDEN_INSTANCE_ID) starts again.
        .onConflict((oc) => oc.column('id').doUpdateSet({ started_at: instance.startedAt, seen_at: now, info }))
        .execute();
    },
    async listInstances(seenAfter) {
      const rows = await db
        .selectFrom('cluster_instances')
        .selectAll()
        .where('seen_at', '>', seenAfter)
        .orderBy('id')
        .execute();
      return rows.map((r) => ({ id: r.id, startedAt: r.started_at, seenAt: r.seen_at, info: parseInfo(r.info) }));
    },
    async removeInstance(id) {
      await db.deleteFrom('cluster_instances').where('id', '=', id).execute();
    },
    async forgetInstances(seenBefore) {
      const result = await db.deleteFrom('cluster_instances').where('seen_at', '<', seenBefore).executeTakeFirst();
      return Number(result.numDeletedRows);
    },
    async ensureLeases(names) {
      if (names.length === 0) return;
      await db
        .insertInto('cluster_leases')
        .values(names.map((name) => ({ name, holder: null, expires_at: 0, acquired_at: null })))
        .onConflict((oc) => oc.column('name').doNothing())
        .execute();
    },
    async acquire(holder, candidates, limit, ttlMs, now) {
      if (candidates.length === 0 || limit <= 0) return [];
      let takeable = db
        .selectFrom('cluster_leases')
        .select('name')
        .where('name', 'in', candidates)
        .where((eb) => eb.or([eb('holder', 'is', null), eb('expires_at', '<=', now)]))
        .orderBy('name')
        .limit(limit);
      // Instances acquiring at once pass over each other's rows instead of queueing behind them (SQLite has one writer).
      if (locksRows) takeable = takeable.forUpdate().skipLocked();
      const rows = await db
        .updateTable('cluster_leases')
        .set({ holder, expires_at: now + ttlMs, acquired_at: now })
        .where('name', 'in', takeable)
        // Re-checked on the row as it is when locked: one taken meanwhile (and committed) stays its new holder's.
        .where((eb) => eb.or([eb('holder', 'is', null), eb('expires_at', '<=', now)]))
        .returning('name')
        .execute();
      return rows.map((r) => r.name).sort();
    },
    async renew(holder, names, ttlMs, now) {
      if (names.length === 0) return [];
      const rows = await db
        .updateTable('cluster_leases')
        .set({ expires_at: now + ttlMs })
        .where('holder', '=', holder)
        .where('name', 'in', names)
        .returning('name')
        .execute();
      return rows.map((r) => r.name).sort();
    },
    async release(holder, names) {
      if (names.length === 0) return 0;
      const result = await db
        .updateTable('cluster_leases')
        .set({ holder: null, expires_at: 0, acquired_at: null })
        .where('holder', '=', holder)
        .where('name', 'in', names)
        .executeTakeFirst();
      return Number(result.numUpdatedRows);
    },
    async listLeases() {
      const rows = await db.selectFrom('cluster_leases').selectAll().orderBy('name').execute();
      return rows.map((r) => ({ name: r.name, holder: r.holder, expiresAt: r.expires_at, acquiredAt: r.acquired_at }));
    },
  };
}

function parseInfo(text: string): Record<string, unknown> {
  try {
    const value: unknown = JSON.parse(text);
    return value !== null && typeof value === 'object' && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : {};
  } catch {
    return {};
  }
}
