// Escalation policies (store.escalationPolicies): an organization's ordered steps of channels, edited by the API and
// warden.yaml, read by the outbox when an alert opens and by the escalation scan.
import type { Selectable } from 'kysely';
import type { EscalationPolicy, EscalationPolicySpec, EscalationStep } from '../../domain/alert.js';
import type { ManagedBy } from '../../domain/ownership.js';
import type { Db, EscalationPoliciesTable } from '../tables.js';
import { deleteWhere, findOne, mapped, updateWhere } from './query.js';
import { fromColumns } from './rows.js';

export interface EscalationPolicyRepository {
  list(organizationId: string): Promise<EscalationPolicy[]>;
  findById(id: string): Promise<EscalationPolicy | undefined>;
  findByKey(organizationId: string, key: string): Promise<EscalationPolicy | undefined>;
  insert(
    policy: EscalationPolicySpec & { id: string; organizationId: string; managedBy: ManagedBy },
    now: number,
  ): Promise<void>;
  update(id: string, spec: EscalationPolicySpec, managedBy: ManagedBy, now: number): Promise<void>;
  delete(id: string): Promise<void>;
}

const toPolicy = (r: Selectable<EscalationPoliciesTable>): EscalationPolicy => ({
  ...fromColumns(r, ['id', 'organizationId', 'key', 'name', 'managedBy']),
  steps: JSON.parse(r.steps) as EscalationStep[],
  monitors: r.monitors === null ? null : (JSON.parse(r.monitors) as string[]),
  createdAt: Number(r.created_at),
  updatedAt: Number(r.updated_at),
});

const specColumns = (spec: EscalationPolicySpec) => ({
  key: spec.key,
  name: spec.name,
  steps: JSON.stringify(spec.steps),
  monitors: spec.monitors === null ? null : JSON.stringify(spec.monitors),
});

export function escalationPolicyRepository(db: Db): EscalationPolicyRepository {
  return {
    async list(organizationId) {
      return (
        await db
          .selectFrom('escalation_policies')
          .selectAll()
          .where('organization_id', '=', organizationId)
          .orderBy('key')
          .execute()
      ).map(toPolicy);
    },
    findById: async (id) => mapped(await findOne(db, 'escalation_policies', { id }), toPolicy),
    findByKey: async (organizationId, key) =>
      mapped(await findOne(db, 'escalation_policies', { organization_id: organizationId, key }), toPolicy),
    async insert(policy, now) {
      await db
        .insertInto('escalation_policies')
        .values({
          id: policy.id,
          organization_id: policy.organizationId,
          ...specColumns(policy),
          managed_by: policy.managedBy,
          created_at: now,
          updated_at: now,
        })
        .execute();
    },
    async update(id, spec, managedBy, now) {
      await updateWhere(
        db,
        'escalation_policies',
        { id },
        { ...specColumns(spec), managed_by: managedBy, updated_at: now },
      );
    },
    async delete(id) {
      await deleteWhere(db, 'escalation_policies', { id });
    },
  };
}
