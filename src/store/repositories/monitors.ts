// Monitors: what to check (type + config), where it runs, and the lookups of the API, the file and the relays.
// Their state lives in monitor-states.ts, what the runners read in schedule.ts. Contract:
// test/contracts/store-monitors.contract.test.ts, and store-monitor-list.contract.test.ts for the dashboard's list.
import { sql } from 'kysely';
import type { Monitor, MonitorSpec, StoredToken } from '../../domain/monitor.js';
import type { ManagedBy } from '../../domain/ownership.js';
import type { Db, Dialect } from '../tables.js';
import { countOf } from './count.js';
import { inChunks } from './in-chunks.js';
import { type MonitorListPage, type MonitorQuery, monitorList } from './monitor-list.js';
import { notifyOf, specColumns, storedNotify, toMonitor } from './monitor-rows.js';

export interface MonitorRepository {
  /** An organization's monitors, by key. */
  list(organizationId: string): Promise<Monitor[]>;
  /** A page of the monitors matching the filters, each with its position, and how many match in all (the dashboard's list). */
  query(query: MonitorQuery): Promise<MonitorListPage>;
  /** Those of these ids that are the organization's monitors. */
  idsOf(organizationId: string, ids: readonly string[]): Promise<string[]>;
  count(organizationId: string): Promise<number>;
  findById(id: string): Promise<Monitor | undefined>;
  findByIds(ids: readonly string[]): Promise<Monitor[]>;
  findByKey(organizationId: string, key: string): Promise<Monitor | undefined>;
  findByPushTokenHash(hash: string): Promise<(Monitor & { pushTokenHash: string }) | undefined>;
  /**
   * The enabled push monitors holding tokens with these hashes, by hash (one query for many: what a heartbeat needs,
   * without reading the rest of the monitor). A hash no enabled push monitor holds is missing from the map.
   */
  pushTargets(hashes: readonly string[]): Promise<Map<string, string>>;
  pushTokenHash(id: string): Promise<string | null>;
  /** `secretsSetAt` (default null): when the config's secrets were written in full. */
  insert(
    monitor: MonitorSpec & {
      id: string;
      organizationId: string;
      managedBy: ManagedBy;
      pushToken: StoredToken | null;
      secretsSetAt?: number | null;
    },
    now: number,
  ): Promise<void>;
  updateSpec(id: string, spec: MonitorSpec, managedBy: ManagedBy, now: number): Promise<void>;
  setPushToken(id: string, token: StoredToken | null, now: number): Promise<void>;
  /** Records that the monitor's secrets were just written in full: a relay whose token was rotated before `at` gets them. */
  markSecretsSet(id: string, at: number): Promise<void>;
  /** Deletes the monitor with its checks, buckets and state changes. */
  delete(id: string): Promise<void>;
  /** Keys of the monitors a relay runs (its own, and those naming it among their locations), enabled or not. */
  keysOnRelay(relayId: string): Promise<string[]>;
  /** Every monitor's id, in order (retention walks them). */
  listIds(): Promise<string[]>;
  /** An organization's monitors that name notification channels (`notify`), with the keys they name. */
  listNotify(organizationId: string): Promise<{ id: string; notify: string[] }[]>;
}

/**
 * The checks of monitors just deleted, journaled or folded: on PostgreSQL no foreign key deletes them with their
 * monitor (migration 0035), on SQLite one did already. Called after the monitors' rows are deleted, in the same
 * transaction: ingest journals a check only with its monitor's row locked, so none can follow.
 */
export async function deleteChecksOf(db: Db, monitorIds: readonly string[]): Promise<void> {
  await inChunks(monitorIds, async (chunk) => {
    await db.deleteFrom('check_journal').where('monitor_id', 'in', chunk).execute();
    await db.deleteFrom('checks').where('monitor_id', 'in', chunk).execute();
    return [];
  });
}

export function monitorRepository(db: Db, dialect: Dialect): MonitorRepository {
  const all = () => db.selectFrom('monitors').selectAll();
  return {
    async list(organizationId) {
      return (await all().where('organization_id', '=', organizationId).orderBy('key').execute()).map(toMonitor);
    },
    query: monitorList(db, dialect),
    idsOf: (organizationId, ids) =>
      inChunks(ids, async (chunk) =>
        (
          await db
            .selectFrom('monitors')
            .select('id')
            .where('organization_id', '=', organizationId)
            .where('id', 'in', chunk)
            .execute()
        ).map((r) => r.id),
      ),
    count: (organizationId) => countOf(db.selectFrom('monitors').where('organization_id', '=', organizationId)),
    async findById(id) {
      const row = await all().where('id', '=', id).executeTakeFirst();
      return row && toMonitor(row);
    },
    findByIds: (ids) => inChunks(ids, async (chunk) => (await all().where('id', 'in', chunk).execute()).map(toMonitor)),
    async findByKey(organizationId, key) {
      const row = await all().where('organization_id', '=', organizationId).where('key', '=', key).executeTakeFirst();
      return row && toMonitor(row);
    },
    async findByPushTokenHash(hash) {
      const row = await all().where('push_token_hash', '=', hash).executeTakeFirst();
      return row && { ...toMonitor(row), pushTokenHash: row.push_token_hash as string };
    },
    async pushTargets(hashes) {
      const rows = await inChunks(hashes, (chunk) =>
        db
          .selectFrom('monitors')
          .select(['id', 'push_token_hash'])
          .where('push_token_hash', 'in', chunk)
          .where('run_on', '=', 'push')
          .where('enabled', '=', 1)
          .execute(),
      );
      return new Map(rows.map((row) => [row.push_token_hash as string, row.id]));
    },
    async pushTokenHash(id) {
      return (
        (await db.selectFrom('monitors').select('push_token_hash').where('id', '=', id).executeTakeFirst())
          ?.push_token_hash ?? null
      );
    },
    async insert(monitor, now) {
      await db
        .insertInto('monitors')
        .values({
          id: monitor.id,
          organization_id: monitor.organizationId,
          ...specColumns(monitor),
          paused_at: monitor.enabled ? null : now,
          push_token_hash: monitor.pushToken?.hash ?? null,
          push_token_prefix: monitor.pushToken?.prefix ?? null,
          state: 'unknown',
          state_since: now,
          failure_streak: 0,
          last_check_at: null,
          last_result: null,
          secrets_set_at: monitor.secretsSetAt ?? null,
          notify: storedNotify(monitor.notify ?? null),
          tags: JSON.stringify(monitor.tags ?? []),
          managed_by: monitor.managedBy,
          created_at: now,
          updated_at: now,
        })
        .execute();
    },
    async updateSpec(id, spec, managedBy, now) {
      await db
        .updateTable('monitors')
        // A pause keeps its first time while the monitor stays paused; enabling it forgets it.
        .set({
          ...specColumns(spec),
          paused_at: spec.enabled ? null : sql<number>`coalesce(paused_at, ${now})`,
          managed_by: managedBy,
          updated_at: now,
        })
        .where('id', '=', id)
        .execute();
    },
    async setPushToken(id, token, now) {
      await db
        .updateTable('monitors')
        .set({ push_token_hash: token?.hash ?? null, push_token_prefix: token?.prefix ?? null, updated_at: now })
        .where('id', '=', id)
        .execute();
    },
    async markSecretsSet(id, at) {
      await db.updateTable('monitors').set({ secrets_set_at: at }).where('id', '=', id).execute();
    },
    async delete(id) {
      // Its row first: ingest journals a check only with that row locked, so none comes after it.
      await db.deleteFrom('monitors').where('id', '=', id).execute();
      await deleteChecksOf(db, [id]);
    },
    async keysOnRelay(relayId) {
      return (
        await db
          .selectFrom('monitors')
          .select('key')
          // Its own monitors, and those naming it among their locations (a JSON array of quoted ids; see schedule.ts).
          .where((eb) => eb.or([eb('relay_id', '=', relayId), eb('locations', 'like', `%${JSON.stringify(relayId)}%`)]))
          .orderBy('key')
          .execute()
      ).map((r) => r.key);
    },
    async listIds() {
      return (await db.selectFrom('monitors').select('id').orderBy('id').execute()).map((r) => r.id);
    },
    async listNotify(organizationId) {
      const rows = await db
        .selectFrom('monitors')
        .select(['id', 'notify'])
        .where('organization_id', '=', organizationId)
        .where('notify', 'is not', null)
        .execute();
      return rows.map((r) => ({ id: r.id, notify: notifyOf(r.notify) ?? [] }));
    },
  };
}
