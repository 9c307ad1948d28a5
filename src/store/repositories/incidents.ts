// Incidents of a page with their timeline of updates and the components they affect.
import type { Selectable } from 'kysely';
import type { Incident, IncidentSpec, IncidentUpdate } from '../../domain/incident.js';
import type { ManagedBy } from '../../domain/ownership.js';
import type { Db, IncidentsTable } from '../tables.js';
import { countOf } from './count.js';
import { replaceLinks } from './links.js';

export interface IncidentRepository {
  /** A page's incidents, newest first, with updates (oldest first) and affected components; `since` keeps open ones and those resolved since. */
  list(pageId: string, options?: { since?: number; limit?: number }): Promise<Incident[]>;
  count(pageId: string): Promise<number>;
  /** The incidents on an organization's pages, newest first (open ones only, or resolved ones only, when told), at most `limit`. */
  listOfOrganization(organizationId: string, options: { resolved?: boolean; limit: number }): Promise<Incident[]>;
  findById(id: string): Promise<Incident | undefined>;
  findByKey(pageId: string, key: string): Promise<Incident | undefined>;
  /** A new incident with its timeline; `newUpdateId` names each update. */
  insert(
    incident: IncidentSpec & { id: string; pageId: string; managedBy: ManagedBy },
    newUpdateId: () => string,
    now: number,
  ): Promise<void>;
  /** Replaces an incident, its timeline and components included. */
  replace(id: string, spec: IncidentSpec, managedBy: ManagedBy, newUpdateId: () => string, now: number): Promise<void>;
  /** Changes an incident's own fields, leaving its timeline and components as they are. */
  updateFields(
    id: string,
    changes: Partial<Pick<Incident, 'title' | 'status' | 'impact' | 'startedAt' | 'resolvedAt'>>,
    now: number,
  ): Promise<void>;
  /** Appends one entry to an incident's timeline. */
  addUpdate(incidentId: string, update: IncidentUpdate): Promise<void>;
  setComponents(id: string, componentIds: readonly string[]): Promise<void>;
  delete(id: string): Promise<void>;
}

export function incidentRepository(db: Db): IncidentRepository {
  async function withDetails(rows: Selectable<IncidentsTable>[]): Promise<Incident[]> {
    if (rows.length === 0) return [];
    const ids = rows.map((r) => r.id);
    const [updates, links] = await Promise.all([
      db
        .selectFrom('incident_updates')
        .selectAll()
        .where('incident_id', 'in', ids)
        .orderBy('created_at')
        .orderBy('id')
        .execute(),
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
      updates: updates
        .filter((u) => u.incident_id === r.id)
        .map((u) => ({ id: u.id, status: u.status, message: u.message, at: u.created_at })),
      managedBy: r.managed_by,
      createdAt: r.created_at,
      updatedAt: r.updated_at,
    }));
  }

  const setComponents = (id: string, componentIds: readonly string[]) =>
    replaceLinks(db, 'incident_components', id, componentIds);

  async function replaceDetails(id: string, spec: IncidentSpec, newUpdateId: () => string): Promise<void> {
    await setComponents(id, spec.componentIds);
    await db.deleteFrom('incident_updates').where('incident_id', '=', id).execute();
    if (spec.updates.length > 0)
      await db
        .insertInto('incident_updates')
        .values(
          spec.updates.map((u) => ({
            id: newUpdateId(),
            incident_id: id,
            status: u.status,
            message: u.message,
            created_at: u.at,
          })),
        )
        .execute();
  }

  const fields = (spec: IncidentSpec) => ({
    key: spec.key,
    title: spec.title,
    status: spec.status,
    impact: spec.impact,
    started_at: spec.startedAt,
    resolved_at: spec.resolvedAt,
  });

  return {
    async list(pageId, options = {}) {
      let query = db.selectFrom('incidents').selectAll().where('page_id', '=', pageId);
      const { since } = options;
      if (since !== undefined)
        query = query.where((eb) => eb.or([eb('resolved_at', 'is', null), eb('resolved_at', '>=', since)]));
      return withDetails(
        await query
          .orderBy('started_at', 'desc')
          .orderBy('id')
          .limit(options.limit ?? 1000)
          .execute(),
      );
    },
    count: (pageId) => countOf(db.selectFrom('incidents').where('page_id', '=', pageId)),
    async listOfOrganization(organizationId, { resolved, limit }) {
      let query = db
        .selectFrom('incidents')
        .innerJoin('pages', 'pages.id', 'incidents.page_id')
        .selectAll('incidents')
        .where('pages.organization_id', '=', organizationId);
      if (resolved !== undefined) query = query.where('incidents.resolved_at', resolved ? 'is not' : 'is', null);
      return withDetails(
        await query.orderBy('incidents.started_at', 'desc').orderBy('incidents.id').limit(limit).execute(),
      );
    },
    async findById(id) {
      return (await withDetails(await db.selectFrom('incidents').selectAll().where('id', '=', id).execute()))[0];
    },
    async findByKey(pageId, key) {
      return (
        await withDetails(
          await db.selectFrom('incidents').selectAll().where('page_id', '=', pageId).where('key', '=', key).execute(),
        )
      )[0];
    },
    async insert(incident, newUpdateId, now) {
      await db
        .insertInto('incidents')
        .values({
          id: incident.id,
          page_id: incident.pageId,
          ...fields(incident),
          managed_by: incident.managedBy,
          created_at: now,
          updated_at: now,
        })
        .execute();
      await replaceDetails(incident.id, incident, newUpdateId);
    },
    async replace(id, spec, managedBy, newUpdateId, now) {
      await db
        .updateTable('incidents')
        .set({ ...fields(spec), managed_by: managedBy, updated_at: now })
        .where('id', '=', id)
        .execute();
      await replaceDetails(id, spec, newUpdateId);
    },
    async updateFields(id, changes, now) {
      await db
        .updateTable('incidents')
        .set({
          title: changes.title,
          status: changes.status,
          impact: changes.impact,
          started_at: changes.startedAt,
          resolved_at: changes.resolvedAt,
          updated_at: now,
        })
        .where('id', '=', id)
        .execute();
    },
    async addUpdate(incidentId, update) {
      await db
        .insertInto('incident_updates')
        .values({
          id: update.id,
          incident_id: incidentId,
          status: update.status,
          message: update.message,
          created_at: update.at,
        })
        .execute();
    },
    setComponents,
    async delete(id) {
      await db.deleteFrom('incidents').where('id', '=', id).execute();
    },
  };
}
