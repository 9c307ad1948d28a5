// Cluster mode's tables: the instances' heartbeats, and the leases (shards of the edge monitors, singleton runners)
// each held by one instance until it stops renewing them.
import type { ClusterRepository } from '../store.js';
import type { Db } from '../tables.js';

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
      const rows = await db.selectFrom('cluster_instances').selectAll().where('seen_at', '>', seenAfter).orderBy('id').execute();
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
    return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}
