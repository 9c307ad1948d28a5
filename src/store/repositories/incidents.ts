// Incidents of a page with their timeline of updates and the components they affect.
import type { Selectable } from 'kysely';
import type { Incident, IncidentSpec, IncidentUpdate } from '../../domain/incident.js';
import type { ManagedBy } from '../../domain/ownership.js';
import type { Db, IncidentsTable } from '../tables.js';
import { countOf } from './count.js';
import { replaceLinks } from './links.js';
import { fromColumns, toColumns } from './rows.js';

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

/** The fields of an incident that are columns of the same name in snake_case, besides its id, page and ownership. */
const SPEC_FIELDS = ['key', 'title', 'status', 'impact', 'startedAt', 'resolvedAt'] as const;

const updateRow = (incidentId: string, u: IncidentUpdate) => ({
  id: u.id,
  incident_id: incidentId,
  status: u.status,
  message: u.message,
  created_at: u.at,
});

export function incidentRepository(db: Db): IncidentRepository {
  return { ...incidentReads(db), ...incidentWrites(db) };
}

type ReadMethods = 'list' | 'count' | 'listOfOrganization' | 'findById' | 'findByKey';

/** Incidents with their timelines and components, assembled in two more queries for any number of them. */
async function withDetails(db: Db, rows: Selectable<IncidentsTable>[]): Promise<Incident[]> {
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
    ...fromColumns(r, ['id', 'pageId', ...SPEC_FIELDS]),
    componentIds: links.filter((l) => l.incident_id === r.id).map((l) => l.component_id),
    updates: updates
      .filter((u) => u.incident_id === r.id)
      .map((u) => ({ id: u.id, status: u.status, message: u.message, at: u.created_at })),
    ...fromColumns(r, ['managedBy', 'createdAt', 'updatedAt']),
  }));
}

function incidentReads(db: Db): Pick<IncidentRepository, ReadMethods> {
  const incidents = () => db.selectFrom('incidents').selectAll();
  return {
    async list(pageId, options = {}) {
      let query = incidents().where('page_id', '=', pageId);
      const { since } = options;
      if (since !== undefined)
        query = query.where((eb) => eb.or([eb('resolved_at', 'is', null), eb('resolved_at', '>=', since)]));
      return withDetails(
        db,
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
        db,
        await query.orderBy('incidents.started_at', 'desc').orderBy('incidents.id').limit(limit).execute(),
      );
    },
    async findById(id) {
      return (await withDetails(db, await incidents().where('id', '=', id).execute()))[0];
    },
    async findByKey(pageId, key) {
      return (
        await withDetails(db, await incidents().where('page_id', '=', pageId).where('key', '=', key).execute())
      )[0];
    },
  };
}

function incidentWrites(db: Db): Omit<IncidentRepository, ReadMethods> {
  const setComponents = (id: string, componentIds: readonly string[]) =>
    replaceLinks(db, 'incident_components', id, componentIds);

  async function replaceDetails(id: string, spec: IncidentSpec, newUpdateId: () => string): Promise<void> {
    await setComponents(id, spec.componentIds);
    await db.deleteFrom('incident_updates').where('incident_id', '=', id).execute();
    if (spec.updates.length > 0)
      await db
        .insertInto('incident_updates')
        .values(spec.updates.map((u) => updateRow(id, { ...u, id: newUpdateId() })))
        .execute();
  }

  return {
    async insert(incident, newUpdateId, now) {
      await db
        .insertInto('incidents')
        .values({
          ...toColumns(incident, ['id', 'pageId', ...SPEC_FIELDS, 'managedBy']),
          created_at: now,
          updated_at: now,
        })
        .execute();
      await replaceDetails(incident.id, incident, newUpdateId);
    },
    async replace(id, spec, managedBy, newUpdateId, now) {
      await db
        .updateTable('incidents')
        .set({ ...toColumns(spec, SPEC_FIELDS), managed_by: managedBy, updated_at: now })
        .where('id', '=', id)
        .execute();
      await replaceDetails(id, spec, newUpdateId);
    },
    async updateFields(id, changes, now) {
      await db
        .updateTable('incidents')
        .set({ ...toColumns(changes, ['title', 'status', 'impact', 'startedAt', 'resolvedAt']), updated_at: now })
        .where('id', '=', id)
        .execute();
    },
    async addUpdate(incidentId, update) {
      await db.insertInto('incident_updates').values(updateRow(incidentId, update)).execute();
    },
    setComponents,
    async delete(id) {
      await db.deleteFrom('incidents').where('id', '=', id).execute();
    },
  };
}
