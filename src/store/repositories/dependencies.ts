// Monitor dependencies: an organization's monitors as the dependency rules see them (domain/dependencies.ts), and the
// clearing of a deleted parent's name from its children and relays. Contract: test/contracts/store-dependencies.contract.test.ts.
import { type DependencyNode, effectiveParent } from '../../domain/dependencies.js';
import type { Db } from '../tables.js';

export interface DependencyRepository {
  /** Every monitor of the organization with its effective parent (its own `dependsOn`, else its relay's). */
  nodes(organizationId: string): Promise<DependencyNode[]>;
  /** Whether any monitor or relay of the organization names a parent (most name none: nothing more to read). */
  any(organizationId: string): Promise<boolean>;
  /** Forgets `key` as a parent: the monitors and relays that named it depend on nothing; how many did. */
  clearParent(organizationId: string, key: string, now: number): Promise<number>;
}

export function dependencyRepository(db: Db): DependencyRepository {
  return {
    async nodes(organizationId) {
      const rows = await db
        .selectFrom('monitors')
        .leftJoin('relays', (join) =>
          join.onRef('relays.id', '=', 'monitors.relay_id').on('monitors.run_on', '=', 'relay'),
        )
        .select([
          'monitors.id',
          'monitors.key',
          'monitors.name',
          'monitors.state',
          'monitors.enabled',
          'monitors.state_since',
          'monitors.depends_on',
          'relays.depends_on as relay_depends_on',
        ])
        .where('monitors.organization_id', '=', organizationId)
        .execute();
      return rows.map((r) => ({
        id: r.id,
        key: r.key,
        name: r.name,
        state: r.state,
        enabled: r.enabled === 1,
        stateSince: r.state_since,
        parent: effectiveParent(r.depends_on, r.relay_depends_on ?? null, r.key),
      }));
    },
    async any(organizationId) {
      const [monitor, relay] = await Promise.all([
        db
          .selectFrom('monitors')
          .select('id')
          .where('organization_id', '=', organizationId)
          .where('depends_on', 'is not', null)
          .limit(1)
          .executeTakeFirst(),
        db
          .selectFrom('relays')
          .select('id')
          .where('organization_id', '=', organizationId)
          .where('depends_on', 'is not', null)
          .limit(1)
          .executeTakeFirst(),
      ]);
      return monitor !== undefined || relay !== undefined;
    },
    async clearParent(organizationId, key, now) {
      const monitors = await db
        .updateTable('monitors')
        .set({ depends_on: null, updated_at: now })
        .where('organization_id', '=', organizationId)
        .where('depends_on', '=', key)
        .executeTakeFirst();
      const relays = await db
        .updateTable('relays')
        .set({ depends_on: null, updated_at: now })
        .where('organization_id', '=', organizationId)
        .where('depends_on', '=', key)
        .executeTakeFirst();
      return Number(monitors.numUpdatedRows) + Number(relays.numUpdatedRows);
    },
  };
}
