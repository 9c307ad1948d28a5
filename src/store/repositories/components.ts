// Components of a page: what players see listed, each optionally following one monitor.
import type { Selectable } from 'kysely';
import { type JoinSetting, joinSettingSchema } from '../../domain/join.js';
import type { ManagedBy } from '../../domain/ownership.js';
import type { Component, ComponentSpec } from '../../domain/page.js';
import type { ComponentsTable, Db } from '../tables.js';
import { deleteWhere, findOne, mapped, updateWhere } from './query.js';
import { fromColumns, toColumns } from './rows.js';

const toComponent = (r: Selectable<ComponentsTable>): Component => ({
  ...fromColumns(r, ['id', 'pageId', 'key', 'name', 'description', 'monitorId', 'managedBy', 'createdAt', 'updatedAt']),
  group: r.group_name,
  order: r.sort_order,
  join: joinFromColumn(r.join_button),
});

const specColumns = (s: ComponentSpec) => ({
  ...toColumns(s, ['key', 'name', 'description', 'monitorId']),
  group_name: s.group,
  sort_order: s.order,
  join_button: s.join === 'auto' ? null : s.join === 'hidden' ? s.join : JSON.stringify(s.join),
});

/** null is "auto"; a value that no longer reads as a setting falls back to it rather than failing the page. */
function joinFromColumn(value: string | null): JoinSetting {
  if (value === null) return 'auto';
  if (value === 'hidden') return value;
  try {
    const parsed = joinSettingSchema.safeParse(JSON.parse(value));
    return parsed.success ? parsed.data : 'auto';
  } catch {
    return 'auto';
  }
}

export interface ComponentRepository {
  /** A page's components in page order. */
  list(pageId: string): Promise<Component[]>;
  findById(id: string): Promise<Component | undefined>;
  insert(component: ComponentSpec & { id: string; pageId: string; managedBy: ManagedBy }, now: number): Promise<void>;
  update(id: string, spec: ComponentSpec, managedBy: ManagedBy, now: number): Promise<void>;
  delete(id: string): Promise<void>;
  /** Ids of the pages that show this monitor through one of their components. */
  pageIdsShowing(monitorId: string): Promise<string[]>;
  /** Ids of the pages that show any monitor of this relay. */
  pageIdsShowingRelay(relayId: string): Promise<string[]>;
  /** Every (page, monitor) a component links, for the page cache's index. */
  monitorLinks(): Promise<{ pageId: string; monitorId: string }[]>;
  /** Every component on an organization's pages. */
  listOfOrganization(organizationId: string): Promise<Component[]>;
}

export function componentRepository(db: Db): ComponentRepository {
  return {
    async list(pageId) {
      const rows = await db
        .selectFrom('components')
        .selectAll()
        .where('page_id', '=', pageId)
        .orderBy('sort_order')
        .orderBy('name')
        .execute();
      return rows.map(toComponent);
    },
    findById: async (id) => mapped(await findOne(db, 'components', { id }), toComponent),
    async insert(c, now) {
      await db
        .insertInto('components')
        .values({
          id: c.id,
          page_id: c.pageId,
          ...specColumns(c),
          managed_by: c.managedBy,
          created_at: now,
          updated_at: now,
        })
        .execute();
    },
    async update(id, spec, managedBy, now) {
      await updateWhere(db, 'components', { id }, { ...specColumns(spec), managed_by: managedBy, updated_at: now });
    },
    async delete(id) {
      await deleteWhere(db, 'components', { id });
    },
    async pageIdsShowing(monitorId) {
      const rows = await db
        .selectFrom('components')
        .select('page_id')
        .distinct()
        .where('monitor_id', '=', monitorId)
        .execute();
      return rows.map((r) => r.page_id);
    },
    async pageIdsShowingRelay(relayId) {
      const rows = await db
        .selectFrom('components')
        .innerJoin('monitors', 'monitors.id', 'components.monitor_id')
        .select('components.page_id')
        .distinct()
        .where('monitors.relay_id', '=', relayId)
        .execute();
      return rows.map((r) => r.page_id);
    },
    async listOfOrganization(organizationId) {
      const rows = await db
        .selectFrom('components')
        .innerJoin('pages', 'pages.id', 'components.page_id')
        .selectAll('components')
        .where('pages.organization_id', '=', organizationId)
        .orderBy('components.page_id')
        .orderBy('components.sort_order')
        .execute();
      return rows.map(toComponent);
    },
    async monitorLinks() {
      const rows = await db
        .selectFrom('components')
        .select(['page_id', 'monitor_id'])
        .where('monitor_id', 'is not', null)
        .execute();
      return rows.map((r) => ({ pageId: r.page_id, monitorId: r.monitor_id as string }));
    },
  };
}
