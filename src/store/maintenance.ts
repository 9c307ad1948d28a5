// Maintenance windows of a page and the components they cover.
import type { Db } from './connect.js';
import type { MaintenanceTable, ManagedBy } from './tables.js';

export interface Maintenance {
  id: string;
  pageId: string;
  key: string | null;
  title: string;
  description: string | null;
  startsAt: number;
  endsAt: number;
  componentIds: string[];
  managedBy: ManagedBy;
  createdAt: number;
  updatedAt: number;
}

export type MaintenanceSpec = Pick<Maintenance, 'key' | 'title' | 'description' | 'startsAt' | 'endsAt' | 'componentIds'>;

/** Windows of a page ending at or after `endingAfter` (all when absent), soonest first. */
export async function listMaintenance(db: Db, pageId: string, endingAfter?: number): Promise<Maintenance[]> {
  let query = db.selectFrom('maintenance').selectAll().where('page_id', '=', pageId);
  if (endingAfter !== undefined) query = query.where('ends_at', '>=', endingAfter);
  return withComponents(db, await query.orderBy('starts_at').limit(1000).execute());
}

export async function findMaintenanceById(db: Db, id: string): Promise<Maintenance | undefined> {
  const row = await db.selectFrom('maintenance').selectAll().where('id', '=', id).executeTakeFirst();
  return row && (await withComponents(db, [row]))[0];
}

export async function countMaintenance(db: Db, pageId: string): Promise<number> {
  const row = await db
    .selectFrom('maintenance')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('page_id', '=', pageId)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

export async function maintenanceKeyTaken(db: Db, pageId: string, key: string): Promise<boolean> {
  const row = await db.selectFrom('maintenance').select('id').where('page_id', '=', pageId).where('key', '=', key).executeTakeFirst();
  return row !== undefined;
}

async function withComponents(db: Db, rows: MaintenanceTable[]): Promise<Maintenance[]> {
  if (rows.length === 0) return [];
  const links = await db.selectFrom('maintenance_components').selectAll().where('maintenance_id', 'in', rows.map((r) => r.id)).execute();
  return rows.map((r) => ({
    id: r.id,
    pageId: r.page_id,
    key: r.key,
    title: r.title,
    description: r.description,
    startsAt: r.starts_at,
    endsAt: r.ends_at,
    componentIds: links.filter((l) => l.maintenance_id === r.id).map((l) => l.component_id),
    managedBy: r.managed_by,
    createdAt: r.created_at,
    updatedAt: r.updated_at,
  }));
}

export async function insertMaintenance(db: Db, m: MaintenanceSpec & { id: string; pageId: string; managedBy: ManagedBy }, now: number): Promise<void> {
  await db
    .insertInto('maintenance')
    .values({
      id: m.id,
      page_id: m.pageId,
      key: m.key,
      title: m.title,
      description: m.description,
      starts_at: m.startsAt,
      ends_at: m.endsAt,
      managed_by: m.managedBy,
      created_at: now,
      updated_at: now,
    })
    .execute();
  await replaceComponents(db, m.id, m.componentIds);
}

export async function updateMaintenance(db: Db, id: string, spec: MaintenanceSpec, managedBy: ManagedBy, now: number): Promise<void> {
  await db
    .updateTable('maintenance')
    .set({
      key: spec.key,
      title: spec.title,
      description: spec.description,
      starts_at: spec.startsAt,
      ends_at: spec.endsAt,
      managed_by: managedBy,
      updated_at: now,
    })
    .where('id', '=', id)
    .execute();
  await replaceComponents(db, id, spec.componentIds);
}

async function replaceComponents(db: Db, id: string, componentIds: string[]): Promise<void> {
  await db.deleteFrom('maintenance_components').where('maintenance_id', '=', id).execute();
  if (componentIds.length > 0)
    await db.insertInto('maintenance_components').values(componentIds.map((componentId) => ({ maintenance_id: id, component_id: componentId }))).execute();
}

export async function deleteMaintenance(db: Db, id: string): Promise<void> {
  await db.deleteFrom('maintenance').where('id', '=', id).execute();
}

export function maintenanceSpecChanged(current: Maintenance, spec: MaintenanceSpec): boolean {
  const simple = (m: MaintenanceSpec) => JSON.stringify([m.title, m.description, m.startsAt, m.endsAt, [...m.componentIds].sort()]);
  return simple(current) !== simple(spec);
}
