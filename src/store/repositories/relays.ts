// Relays: remote agents that run monitors inside private networks, known by a hashed token.
import { type Selectable, sql } from 'kysely';
import type { StoredToken } from '../../domain/monitor.js';
import type { Relay } from '../../domain/organization.js';
import type { ManagedBy } from '../../domain/ownership.js';
import type { Db, RelaysTable } from '../tables.js';
import { countOf } from './count.js';
import { deleteWhere, findOne, mapped, updateWhere } from './query.js';
import { toColumns } from './rows.js';

const toRelay = (r: Selectable<RelaysTable>): Relay => ({
  id: r.id,
  organizationId: r.organization_id,
  key: r.key,
  name: r.name,
  tokenPrefix: r.token_prefix,
  hasToken: r.token_hash !== null,
  lastSeenAt: r.last_seen_at,
  secretsWithheldBefore: r.secrets_withheld_before,
  dependsOn: r.depends_on,
  managedBy: r.managed_by,
  createdAt: r.created_at,
  updatedAt: r.updated_at,
});

/** A relay with how often its most frequent monitor runs: what the watchdog needs to tell it is offline. */
export interface RelayActivity {
  id: string;
  lastSeenAt: number | null;
  /** Since when it is known offline (its notice published); null while online. */
  offlineSince: number | null;
  shortestIntervalSec: number;
}

export interface RelayRepository {
  list(organizationId: string): Promise<Relay[]>;
  count(organizationId: string): Promise<number>;
  findById(id: string): Promise<Relay | undefined>;
  findByKey(organizationId: string, key: string): Promise<Relay | undefined>;
  /** With what authentication needs: the hash, and whether the relay is known offline (so its return is told). */
  findByTokenHash(hash: string): Promise<(Relay & { tokenHash: string; offlineSince: number | null }) | undefined>;
  insert(
    relay: {
      id: string;
      organizationId: string;
      key: string;
      name: string;
      dependsOn?: string | null;
      managedBy: ManagedBy;
    },
    now: number,
  ): Promise<void>;
  update(
    id: string,
    changes: { name?: string; managedBy?: ManagedBy; dependsOn?: string | null },
    now: number,
  ): Promise<void>;
  /** Replaces the relay's token (the old one stops working at once). */
  setToken(id: string, token: StoredToken | null, now: number): Promise<void>;
  /** Secrets set before `before` are withheld from the relay config (a token rotated through the API); null withholds none. */
  withholdSecrets(id: string, before: number | null): Promise<void>;
  touch(id: string, now: number): Promise<void>;
  /**
   * Marks the relay offline since `now`, only if it is not already and was last seen at `lastSeenAt` (a call that came
   * meanwhile wins); true when this call did it, so one process publishes the notice.
   */
  markOffline(id: string, lastSeenAt: number, now: number): Promise<boolean>;
  /** Clears the offline mark set at `offlineSince` and records it seen at `now`; true when this call did it. */
  markBack(id: string, offlineSince: number, now: number): Promise<boolean>;
  delete(id: string): Promise<void>;
  /** Relays that run at least one enabled monitor (their own, or one naming them among its locations). */
  listActivity(): Promise<RelayActivity[]>;
}

export function relayRepository(db: Db): RelayRepository {
  return {
    async list(organizationId) {
      return (
        await db.selectFrom('relays').selectAll().where('organization_id', '=', organizationId).orderBy('key').execute()
      ).map(toRelay);
    },
    count: (organizationId) => countOf(db.selectFrom('relays').where('organization_id', '=', organizationId)),
    findById: async (id) => mapped(await findOne(db, 'relays', { id }), toRelay),
    findByKey: async (organizationId, key) =>
      mapped(await findOne(db, 'relays', { organization_id: organizationId, key }), toRelay),
    async findByTokenHash(hash) {
      const row = await findOne(db, 'relays', { token_hash: hash });
      return row && { ...toRelay(row), tokenHash: row.token_hash as string, offlineSince: row.offline_since };
    },
    async insert(relay, now) {
      await db
        .insertInto('relays')
        .values({
          ...toColumns(relay, ['id', 'organizationId', 'key', 'name']),
          token_hash: null,
          token_prefix: null,
          last_seen_at: null,
          secrets_withheld_before: null,
          depends_on: relay.dependsOn ?? null,
          managed_by: relay.managedBy,
          created_at: now,
          updated_at: now,
        })
        .execute();
    },
    async update(id, changes, now) {
      // Fields left undefined are left as they are.
      await updateWhere(
        db,
        'relays',
        { id },
        { ...toColumns(changes, ['name', 'managedBy', 'dependsOn']), updated_at: now },
      );
    },
    async setToken(id, token, now) {
      const stored = { token_hash: token?.hash ?? null, token_prefix: token?.prefix ?? null };
      await updateWhere(db, 'relays', { id }, { ...stored, updated_at: now });
    },
    async withholdSecrets(id, before) {
      await updateWhere(db, 'relays', { id }, { secrets_withheld_before: before });
    },
    async touch(id, now) {
      await updateWhere(db, 'relays', { id }, { last_seen_at: now });
    },
    async markOffline(id, lastSeenAt, now) {
      const result = await db
        .updateTable('relays')
        .set({ offline_since: now })
        .where('id', '=', id)
        .where('offline_since', 'is', null)
        .where('last_seen_at', '=', lastSeenAt)
        .executeTakeFirst();
      return Number(result.numUpdatedRows) > 0;
    },
    markBack: async (id, offlineSince, now) =>
      (await updateWhere(
        db,
        'relays',
        { id, offline_since: offlineSince },
        { offline_since: null, last_seen_at: now },
      )) > 0,
    async delete(id) {
      await deleteWhere(db, 'relays', { id });
    },
    async listActivity() {
      const rows = await db
        .selectFrom('relays')
        // Its own monitors, and those that name it among their locations (a JSON array of quoted ids).
        .innerJoin('monitors', (join) =>
          join.on((eb) =>
            eb.or([
              eb.and([eb('monitors.relay_id', '=', eb.ref('relays.id')), eb('monitors.run_on', '=', 'relay')]),
              eb('monitors.locations', 'like', sql<string>`'%"' || relays.id || '"%'`),
            ]),
          ),
        )
        .select([
          'relays.id',
          'relays.last_seen_at',
          'relays.offline_since',
          (eb) => eb.fn.min<number>('monitors.interval_sec').as('shortest'),
        ])
        .where('monitors.enabled', '=', 1)
        .groupBy(['relays.id', 'relays.last_seen_at', 'relays.offline_since'])
        .execute();
      return rows.map((r) => ({
        id: r.id,
        lastSeenAt: r.last_seen_at,
        offlineSince: r.offline_since,
        shortestIntervalSec: Number(r.shortest),
      }));
    },
  };
}
