// Organizations: the tenants that own relays, monitors, pages and API keys.
import type { Selectable } from 'kysely';
import type { Organization } from '../../domain/organization.js';
import type { ManagedBy } from '../../domain/ownership.js';
import type { Db, OrganizationsTable } from '../tables.js';
import { deleteChecksOf } from './monitors.js';
import { deleteWhere, findOne, mapped, updateWhere } from './query.js';

const toOrganization = (r: Selectable<OrganizationsTable>): Organization => ({
  id: r.id,
  key: r.key,
  name: r.name,
  probePrivateTargets: r.probe_private_targets ?? null,
  managedBy: r.managed_by,
  createdAt: Number(r.created_at),
  monthlyReport: r.monthly_report === 1,
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
  /** Turns the monthly uptime report on or off. */
  setMonthlyReport(id: string, on: boolean, now: number): Promise<void>;
  /** The organizations whose owners get the monthly report. */
  listMonthlyReports(): Promise<Organization[]>;
  /**
   * Claims the report of `month` (YYYY-MM) for this call, as of `now`: true only for the one call, of any process, that
   * moved the organization's month up to it (stored as `YYYY-MM~<now>` until `completeMonthlyReport`). A claim older
   * than `staleBefore` was left by a process that stopped mid-way (a crash): it may be claimed again.
   */
  claimMonthlyReport(id: string, month: string, now: number, staleBefore: number): Promise<string | null>;
  /** The claimed month's report went out: the month is the last reported. */
  completeMonthlyReport(id: string, claim: string, month: string): Promise<void>;
  /** Gives a claimed month back (its mail failed), so a later attempt claims it again. */
  releaseMonthlyReport(id: string, claim: string, previous: string | null): Promise<void>;
  /** The last month reported (YYYY-MM), a claim in progress (`YYYY-MM~<ms>`), or null. */
  lastMonthlyReport(id: string): Promise<string | null>;
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
          organization: {
            id,
            key,
            name,
            probePrivateTargets: policy,
            managedBy: manager,
            createdAt: now,
            monthlyReport: false,
          },
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
    async setMonthlyReport(id, on, now) {
      await updateWhere(db, 'organizations', { id }, { monthly_report: on ? 1 : 0, updated_at: now });
    },
    async listMonthlyReports() {
      const rows = await db
        .selectFrom('organizations')
        .selectAll()
        .where('monthly_report', '=', 1)
        .orderBy('key')
        .execute();
      return rows.map(toOrganization);
    },
    async claimMonthlyReport(id, month, now, staleBefore) {
      // Times as 13 digits compare as text in time order (until the year 2286).
      const claim = `${month}~${String(now).padStart(13, '0')}`;
      const stale = `${month}~${String(staleBefore).padStart(13, '0')}`;
      const result = await db
        .updateTable('organizations')
        .set({ monthly_report_month: claim })
        .where('id', '=', id)
        .where((eb) =>
          eb.or([
            eb('monthly_report_month', 'is', null),
            // An earlier month, reported or claimed ("2026-10~…" sorts before "2026-11").
            eb('monthly_report_month', '<', month),
            // This month's claim left behind by a process that stopped.
            eb.and([eb('monthly_report_month', '>', `${month}~`), eb('monthly_report_month', '<', stale)]),
          ]),
        )
        .executeTakeFirst();
      return Number(result.numUpdatedRows) > 0 ? claim : null;
    },
    async completeMonthlyReport(id, claim, month) {
      await updateWhere(db, 'organizations', { id, monthly_report_month: claim }, { monthly_report_month: month });
    },
    async releaseMonthlyReport(id, claim, previous) {
      await updateWhere(db, 'organizations', { id, monthly_report_month: claim }, { monthly_report_month: previous });
    },
    async lastMonthlyReport(id) {
      const row = await db
        .selectFrom('organizations')
        .select('monthly_report_month')
        .where('id', '=', id)
        .executeTakeFirst();
      return row?.monthly_report_month ?? null;
    },
    async delete(id) {
      // Deliveries name their organization without a foreign key (a channel's or a subscriber's cascade takes most).
      await deleteWhere(db, 'notification_deliveries', { organization_id: id });
      // Its monitors go with it by their foreign key's cascade; their checks are deleted after them (monitors.ts).
      const monitors = await db.selectFrom('monitors').select('id').where('organization_id', '=', id).execute();
      const deleted = (await deleteWhere(db, 'organizations', { id })) > 0;
      await deleteChecksOf(
        db,
        monitors.map((m) => m.id),
      );
      return deleted;
    },
  };
}
