// The incidents of a public page for AI readers: active ones from the cached snapshot, resolved ones from the store.
import type { Clock } from '../../domain/clock.js';
import type { SnapshotIncident, SnapshotPage } from '../../domain/snapshot.js';
import { DAY_MS } from '../../store/checks.js';
import type { Db } from '../../store/connect.js';
import { type Incident, listIncidents } from '../../store/incidents.js';
import { type PublicScope, requirePublicPage } from './list-public-pages.js';
import type { PageCache } from './page-cache.js';

export interface PublicIncidentQuery {
  /** How many incidents, newest first (AI_LIMITS.incidents.limit). */
  limit: number;
  /** Also list incidents resolved within `days`; otherwise only the active ones. */
  includeResolved: boolean;
  /** How far back resolved incidents go, in days (AI_LIMITS.incidents.days). An active incident is always listed. */
  days: number;
}

export interface PublicIncidents {
  page: SnapshotPage;
  incidents: SnapshotIncident[];
}

export interface PublicIncidentDeps {
  db: Db;
  pages: PageCache;
  clock: Clock;
}

/** Throws NotFoundError for an unknown or hidden page (see requirePublicPage). */
export async function listPublicIncidents(
  deps: PublicIncidentDeps,
  slug: string,
  query: PublicIncidentQuery,
  scope: PublicScope = {},
): Promise<PublicIncidents> {
  const page = requirePublicPage(deps.pages, slug, scope);
  const { snapshot } = await deps.pages.get(page);
  // What is active now is the snapshot's word, so get_status and list_incidents never disagree.
  if (!query.includeResolved) return { page: snapshot.page, incidents: snapshot.activeIncidents.slice(0, query.limit) };
  const since = deps.clock.now() - query.days * DAY_MS;
  const stored = await listIncidents(deps.db, page.id, { since, limit: query.limit });
  const names = new Map(snapshot.components.map((c) => [c.id, c.name]));
  return { page: snapshot.page, incidents: stored.map((incident) => publicIncident(incident, names)) };
}

/** The snapshot's shape of an incident: affected components by id and name, updates oldest first. */
function publicIncident(incident: Incident, names: ReadonlyMap<string, string>): SnapshotIncident {
  return {
    id: incident.id,
    title: incident.title,
    status: incident.status,
    impact: incident.impact,
    startedAt: incident.startedAt,
    resolvedAt: incident.resolvedAt,
    components: incident.componentIds.filter((id) => names.has(id)).map((id) => ({ id, name: names.get(id) as string })),
    updates: incident.updates.map((u) => ({ id: u.id, status: u.status, message: u.message, at: u.at })),
  };
}
