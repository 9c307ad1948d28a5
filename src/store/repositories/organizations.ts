// Organizations: the tenants that own relays, monitors, pages and API keys.
import type { Selectable } from 'kysely';
import type { Organization } from '../../domain/organization.js';
import type { ManagedBy } from '../../domain/ownership.js';
import type { Db, OrganizationsTable } from '../tables.js';
import { deleteWhere, findOne, mapped, updateWhere } from './query.js';

const toOrganization = (r: Selectable<OrganizationsTable>): Organization => ({
  id: r.id,
  key: r.key,
  name: r.name,
  probePrivateTargets: r.probe_private_targets ?? null,
  managedBy: r.managed_by,
  createdAt: Number(r.created_at),
});

export interface OrganizationRepository {
  list(): Promise<Organization[]>;
  findByKey(key: string): Promise<Organization | undefined>;
  /**
   * Creates the organization or renames it and sets its probe-target policy and manager (each left as it is when
   * undefined; a new one gets null and 'api'); returns it and whether anything changed.
   */
  upsert(
    organization: {
      id: string;
      key: string;
      name: string;
      probePrivateTargets?: 'allow' | 'deny' | null;
      managedBy?: ManagedBy;
    },
    now: number,
  ): Promise<{ organization: Organization; changed: boolean }>;
  /** Whether any organization but the one with this key exists. */
  anyOtherThan(key: string): Promise<boolean>;
  findById(id: string): Promise<Organization | undefined>;
  /**
   * Deletes the organization and, by the foreign keys' ON DELETE CASCADE, everything it holds (monitors and their
   * history, pages, relays, keys, channels, memberships, invitations, the audit log); false when there was none.
   */
  delete(id: string): Promise<boolean>;
}

export function organizationRepository(db: Db): OrganizationRepository {
  const findByKey = async (key: string) => mapped(await findOne(db, 'organizations', { key }), toOrganization);
  return {
    async list() {
      return (await db.selectFrom('organizations').selectAll().orderBy('created_at').orderBy('key').execute()).map(
        toOrganization,
      );
    },
    findByKey,
    async upsert({ id, key, name, probePrivateTargets, managedBy }, now) {
      const existing = await findByKey(key);
      if (!existing) {
        const policy = probePrivateTargets ?? null;
        const manager = managedBy ?? 'api';
        await db
          .insertInto('organizations')
          .values({
            id,
            key,
            name,
            probe_private_targets: policy,
            managed_by: manager,
            created_at: now,
            updated_at: now,
          })
          .execute();
        return {
          organization: { id, key, name, probePrivateTargets: policy, managedBy: manager, createdAt: now },
          changed: true,
        };
      }
      const policy = probePrivateTargets === undefined ? existing.probePrivateTargets : probePrivateTargets;
      const manager = managedBy ?? existing.managedBy;
      if (existing.name === name && existing.probePrivateTargets === policy && existing.managedBy === manager)
        return { organization: existing, changed: false };
      const changes = { name, probe_private_targets: policy, managed_by: manager, updated_at: now };
      await updateWhere(db, 'organizations', { id: existing.id }, changes);
      return { organization: { ...existing, name, probePrivateTargets: policy, managedBy: manager }, changed: true };
    },
    async anyOtherThan(key) {
      return (
        (await db.selectFrom('organizations').select('id').where('key', '!=', key).limit(1).executeTakeFirst()) !==
        undefined
      );
    },
    findById: async (id) => mapped(await findOne(db, 'organizations', { id }), toOrganization),
    async delete(id) {
      // Deliveries name their organization without a foreign key (a channel's or a subscriber's cascade takes most).
      await deleteWhere(db, 'notification_deliveries', { organization_id: id });
      return (await deleteWhere(db, 'organizations', { id })) > 0;
    },
  };
}
