// Organizations: the tenants that own relays, monitors, pages and API keys.
import type { Selectable } from 'kysely';
import type { Organization } from '../../domain/organization.js';
import type { OrganizationRepository } from '../store.js';
import type { Db, OrganizationsTable } from '../tables.js';

const toOrganization = (r: Selectable<OrganizationsTable>): Organization => ({
  id: r.id,
  key: r.key,
  name: r.name,
  probePrivateTargets: r.probe_private_targets ?? null,
  createdAt: r.created_at,
});

export function organizationRepository(db: Db): OrganizationRepository {
  const findByKey = async (key: string) => {
    const row = await db.selectFrom('organizations').selectAll().where('key', '=', key).executeTakeFirst();
    return row && toOrganization(row);
  };
  return {
    async list() {
      return (await db.selectFrom('organizations').selectAll().orderBy('created_at').orderBy('key').execute()).map(toOrganization);
    },
    findByKey,
    async upsert({ id, key, name, probePrivateTargets }, now) {
      const existing = await findByKey(key);
      if (!existing) {
        const policy = probePrivateTargets ?? null;
        await db.insertInto('organizations').values({ id, key, name, probe_private_targets: policy, created_at: now, updated_at: now }).execute();
        return { organization: { id, key, name, probePrivateTargets: policy, createdAt: now }, changed: true };
      }
      const policy = probePrivateTargets === undefined ? existing.probePrivateTargets : probePrivateTargets;
      if (existing.name === name && existing.probePrivateTargets === policy) return { organization: existing, changed: false };
      await db.updateTable('organizations').set({ name, probe_private_targets: policy, updated_at: now }).where('id', '=', existing.id).execute();
      return { organization: { ...existing, name, probePrivateTargets: policy }, changed: true };
    },
    async anyOtherThan(key) {
      return (await db.selectFrom('organizations').select('id').where('key', '!=', key).limit(1).executeTakeFirst()) !== undefined;
    },
  };
}
