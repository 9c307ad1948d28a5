// Incidents of a page with their timeline of updates and the components they affect.
import type { Db } from './connect.js';
import type { IncidentsTable, ManagedBy } from './tables.js';

export type IncidentStatus = IncidentsTable['status'];
export type IncidentImpact = IncidentsTable['impact'];

export interface IncidentUpdate {
  id: string;
  status: IncidentStatus;
  message: string;
  at: number;
}

export interface Incident {
  id: string;
  pageId: string;
  key: string | null;
  title: string;
  status: IncidentStatus;
  impact: IncidentImpact;
  startedAt: number;
  resolvedAt: number | null;
  componentIds: string[];
  updates: IncidentUpdate[];
  managedBy: ManagedBy;
  createdAt: number;
  updatedAt: number;
}

export type IncidentSpec = Pick<Incident, 'key' | 'title' | 'status' | 'impact' | 'startedAt' | 'resolvedAt' | 'componentIds'> & {
  updates: Omit<IncidentUpdate, 'id'>[];
};

/** Incidents of a page, newest first, with updates (oldest first) and affected components. */
export async function listIncidents(db: Db, pageId: string, options: { since?: number; limit?: number } = {}): Promise<Incident[]> {
  let query = db.selectFrom('incidents').selectAll().where('page_id', '=', pageId);
  if (options.since !== undefined) query = query.where((eb) => eb.or([eb('resolved_at', 'is', null), eb('resolved_at', '>=', options.since as number)]));
  const rows = await query.orderBy('started_at', 'desc').limit(options.limit ?? 1000).execute();
  return withDetails(db, rows);
}

export async function findIncidentById(db: Db, id: string): Promise<Incident | undefined> {
  const row = await db.selectFrom('incidents').selectAll().where('id', '=', id).executeTakeFirst();
  return row && (await withDetails(db, [row]))[0];
}

export async function incidentKeyTaken(db: Db, pageId: string, key: string): Promise<boolean> {
  const row = await db.selectFrom('incidents').select('id').where('page_id', '=', pageId).where('key', '=', key).executeTakeFirst();
  return row !== undefined;
}

async function withDetails(db: Db, rows: IncidentsTable[]): Promise<Incident[]> {
  if (rows.length === 0) return [];
  const ids = rows.map((r) => r.id);
  const [updates, links] = await Promise.all([
    db.selectFrom('incident_updates').selectAll().where('incident_id', 'in', ids).orderBy('created_at').orderBy('id').execute(),
    db.selectFrom('incident_components').selectAll().where('incident_id', 'in', ids).execute(),
  ]);
  return rows.map((r) => ({
    id: r.id,
    pageId: r.page_id,
    key: r.key,
    title: r.title,
    status: r.status,
    impact: r.impact,
    startedAt: r.started_at,
    resolvedAt: r.resolved_at,
    componentIds: links.filter((l) => l.incident_id === r.id).map((l) => l.component_id),
    updates: updates.filter((u) => u.incident_id === r.id).map((u) => ({ id: u.id, status: u.status, message: u.message, at: u.created_at })),
    managedBy: r.managed_by,
    createdAt: r.created_at,
    updatedAt: r.updated_at,
  }));
}

export async function insertIncident(
  db: Db,
  incident: IncidentSpec & { id: string; pageId: string; managedBy: ManagedBy },
  newUpdateId: () => string,
  now: number,
): Promise<void> {
  await db
    .insertInto('incidents')
    .values({
      id: incident.id,
      page_id: incident.pageId,
      key: incident.key,
      title: incident.title,
      status: incident.status,
      impact: incident.impact,
      started_at: incident.startedAt,
      resolved_at: incident.resolvedAt,
      managed_by: incident.managedBy,
      created_at: now,
      updated_at: now,
    })
    .execute();
  await replaceIncidentDetails(db, incident.id, incident, newUpdateId);
}

export async function updateIncident(db: Db, id: string, spec: IncidentSpec, managedBy: ManagedBy, newUpdateId: () => string, now: number): Promise<void> {
  await db
    .updateTable('incidents')
    .set({
      key: spec.key,
      title: spec.title,
      status: spec.status,
      impact: spec.impact,
      started_at: spec.startedAt,
      resolved_at: spec.resolvedAt,
      managed_by: managedBy,
      updated_at: now,
    })
    .where('id', '=', id)
    .execute();
  await replaceIncidentDetails(db, id, spec, newUpdateId);
}

/** Changes an incident's own fields, leaving its timeline and components as they are. */
export async function updateIncidentFields(
  db: Db,
  id: string,
  changes: Partial<Pick<Incident, 'title' | 'status' | 'impact' | 'startedAt' | 'resolvedAt'>>,
  now: number,
): Promise<void> {
  await db
    .updateTable('incidents')
    .set({
      ...(changes.title !== undefined ? { title: changes.title } : {}),
      ...(changes.status !== undefined ? { status: changes.status } : {}),
      ...(changes.impact !== undefined ? { impact: changes.impact } : {}),
      ...(changes.startedAt !== undefined ? { started_at: changes.startedAt } : {}),
      ...(changes.resolvedAt !== undefined ? { resolved_at: changes.resolvedAt } : {}),
      updated_at: now,
    })
    .where('id', '=', id)
    .execute();
}

/** Appends one entry to an incident's timeline. */
export async function insertIncidentUpdate(db: Db, incidentId: string, update: IncidentUpdate): Promise<void> {
  await db
    .insertInto('incident_updates')
    .values({ id: update.id, incident_id: incidentId, status: update.status, message: update.message, created_at: update.at })
    .execute();
}

export async function setIncidentComponents(db: Db, id: string, componentIds: string[]): Promise<void> {
  await db.deleteFrom('incident_components').where('incident_id', '=', id).execute();
  if (componentIds.length > 0)
    await db.insertInto('incident_components').values(componentIds.map((componentId) => ({ incident_id: id, component_id: componentId }))).execute();
}

async function replaceIncidentDetails(db: Db, id: string, spec: IncidentSpec, newUpdateId: () => string): Promise<void> {
  await setIncidentComponents(db, id, spec.componentIds);
  await db.deleteFrom('incident_updates').where('incident_id', '=', id).execute();
  if (spec.updates.length > 0)
    await db
      .insertInto('incident_updates')
      .values(spec.updates.map((u) => ({ id: newUpdateId(), incident_id: id, status: u.status, message: u.message, created_at: u.at })))
      .execute();
}

export async function deleteIncident(db: Db, id: string): Promise<void> {
  await db.deleteFrom('incidents').where('id', '=', id).execute();
}

export function incidentSpecChanged(current: Incident, spec: IncidentSpec): boolean {
  const simple = (i: IncidentSpec) =>
    JSON.stringify([
      i.title,
      i.status,
      i.impact,
      i.startedAt,
      i.resolvedAt,
      [...i.componentIds].sort(),
      i.updates.map((u) => [u.status, u.message, u.at]),
    ]);
  return simple(current) !== simple(spec);
}
