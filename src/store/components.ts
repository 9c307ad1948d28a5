// Components of a page: what players see listed, each optionally following one monitor.
import type { Db } from './connect.js';
import type { ComponentsTable, ManagedBy } from './tables.js';

export interface Component {
  id: string;
  pageId: string;
  key: string;
  name: string;
  description: string | null;
  group: string | null;
  order: number;
  monitorId: string | null;
  managedBy: ManagedBy;
  createdAt: number;
  updatedAt: number;
}

export type ComponentSpec = Pick<Component, 'key' | 'name' | 'description' | 'group' | 'order' | 'monitorId'>;

const toComponent = (r: ComponentsTable): Component => ({
  id: r.id,
  pageId: r.page_id,
  key: r.key,
  name: r.name,
  description: r.description,
  group: r.group_name,
  order: r.sort_order,
  monitorId: r.monitor_id,
  managedBy: r.managed_by,
  createdAt: r.created_at,
  updatedAt: r.updated_at,
});

const specColumns = (s: ComponentSpec) => ({
  key: s.key,
  name: s.name,
  description: s.description,
  group_name: s.group,
  sort_order: s.order,
  monitor_id: s.monitorId,
});

export async function listComponents(db: Db, pageId: string): Promise<Component[]> {
  const rows = await db.selectFrom('components').selectAll().where('page_id', '=', pageId).orderBy('sort_order').orderBy('name').execute();
  return rows.map(toComponent);
}

export async function findComponentById(db: Db, id: string): Promise<Component | undefined> {
  const row = await db.selectFrom('components').selectAll().where('id', '=', id).executeTakeFirst();
  return row && toComponent(row);
}

/** Ids of the pages that show this monitor through one of their components. */
export async function pageIdsShowingMonitor(db: Db, monitorId: string): Promise<string[]> {
  const rows = await db.selectFrom('components').select('page_id').distinct().where('monitor_id', '=', monitorId).execute();
  return rows.map((r) => r.page_id);
}

export async function insertComponent(db: Db, c: ComponentSpec & { id: string; pageId: string; managedBy: ManagedBy }, now: number): Promise<void> {
  await db
    .insertInto('components')
    .values({ id: c.id, page_id: c.pageId, ...specColumns(c), managed_by: c.managedBy, created_at: now, updated_at: now })
    .execute();
}

export async function updateComponent(db: Db, id: string, spec: ComponentSpec, managedBy: ManagedBy, now: number): Promise<void> {
  await db.updateTable('components').set({ ...specColumns(spec), managed_by: managedBy, updated_at: now }).where('id', '=', id).execute();
}

export async function deleteComponent(db: Db, id: string): Promise<void> {
  await db.deleteFrom('components').where('id', '=', id).execute();
}

export function componentSpecChanged(c: Component, s: ComponentSpec): boolean {
  return c.name !== s.name || c.description !== s.description || c.group !== s.group || c.order !== s.order || c.monitorId !== s.monitorId;
}
