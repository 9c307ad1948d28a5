// Who belongs to which organization, with which role.
import type { Selectable } from 'kysely';
import type { Membership, Role } from '../../domain/account.js';
import type { Organization } from '../../domain/organization.js';
import type { Db, MembershipsTable } from '../tables.js';
import { countOf } from './count.js';
import { deleteWhere, findOne, mapped } from './query.js';

const toMembership = (r: Selectable<MembershipsTable>): Membership => ({
  organizationId: r.organization_id,
  userId: r.user_id,
  role: r.role,
  createdAt: Number(r.created_at),
});

export interface MembershipRepository {
  /** Creates or changes the member's role. */
  put(membership: Membership): Promise<void>;
  find(organizationId: string, userId: string): Promise<Membership | undefined>;
  listByOrganization(organizationId: string): Promise<Membership[]>;
  /** The user's memberships with their organizations, by organization name. */
  listByUser(userId: string): Promise<(Membership & { organization: Organization })[]>;
  countByRole(organizationId: string, role: Role): Promise<number>;
  /** False when there was no such member. */
  delete(organizationId: string, userId: string): Promise<boolean>;
}

export function membershipRepository(db: Db): MembershipRepository {
  return {
    async put(m) {
      await db
        .insertInto('memberships')
        .values({ organization_id: m.organizationId, user_id: m.userId, role: m.role, created_at: m.createdAt })
        .onConflict((oc) => oc.columns(['organization_id', 'user_id']).doUpdateSet({ role: m.role }))
        .execute();
    },
    find: async (organizationId, userId) =>
      mapped(await findOne(db, 'memberships', { organization_id: organizationId, user_id: userId }), toMembership),
    async listByOrganization(organizationId) {
      const rows = await db
        .selectFrom('memberships')
        .selectAll()
        .where('organization_id', '=', organizationId)
        .orderBy('created_at')
        .orderBy('user_id')
        .execute();
      return rows.map(toMembership);
    },
    async listByUser(userId) {
      const rows = await db
        .selectFrom('memberships as m')
        .innerJoin('organizations as o', 'o.id', 'm.organization_id')
        .select([
          'm.organization_id',
          'm.user_id',
          'm.role',
          'm.created_at',
          'o.key',
          'o.name',
          'o.probe_private_targets',
          'o.managed_by',
          'o.monthly_report',
          'o.created_at as org_created_at',
        ])
        .where('m.user_id', '=', userId)
        .orderBy('o.name')
        .orderBy('o.key')
        .execute();
      return rows.map((r) => ({
        ...toMembership(r),
        organization: {
          id: r.organization_id,
          key: r.key,
          name: r.name,
          probePrivateTargets: r.probe_private_targets ?? null,
          managedBy: r.managed_by,
          createdAt: Number(r.org_created_at),
          monthlyReport: r.monthly_report === 1,
        },
      }));
    },
    countByRole: (organizationId, role) =>
      countOf(db.selectFrom('memberships').where('organization_id', '=', organizationId).where('role', '=', role)),
    delete: async (organizationId, userId) =>
      (await deleteWhere(db, 'memberships', { organization_id: organizationId, user_id: userId })) > 0,
  };
}
