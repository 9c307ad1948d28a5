// Atlassian Statuspage's public API v2 (…/api/v2/summary.json and its parts), rendered from the snapshot, so the
// widgets, bots and aggregators written for Statuspage read a Warden page unchanged (docs/statuspage-compat.md).
import type { z } from 'zod';
import type { Snapshot } from '../domain/snapshot.js';
import type { Rendered } from './forms.js';
import type { STATUSPAGE_SCHEMAS } from './statuspage-schema.js';
import { bySchedule, STATUSPAGE_LIST_MAX, View } from './statuspage-view.js';

export { isoInZone } from './statuspage-time.js';
export { COMPONENT_STATUS, STATUSPAGE_LIST_MAX } from './statuspage-view.js';

/** Each Statuspage endpoint Warden answers, by its page-relative path (the same under /s/{slug} and on a custom domain). */
export const STATUSPAGE_PATHS = {
  summary: '/api/v2/summary.json',
  status: '/api/v2/status.json',
  components: '/api/v2/components.json',
  incidents: '/api/v2/incidents.json',
  unresolved: '/api/v2/incidents/unresolved.json',
  maintenances: '/api/v2/scheduled-maintenances.json',
  upcoming: '/api/v2/scheduled-maintenances/upcoming.json',
  active: '/api/v2/scheduled-maintenances/active.json',
} as const;

export type StatuspageEndpoint = keyof typeof STATUSPAGE_PATHS;

/** One endpoint's JSON, from the snapshot alone (pure: the same snapshot gives the same bytes). */
export function renderStatuspage(snapshot: Snapshot, endpoint: StatuspageEndpoint): Rendered {
  return { contentType: 'application/json; charset=utf-8', body: JSON.stringify(statuspageView(snapshot, endpoint)) };
}

export type StatuspageAnswer<E extends StatuspageEndpoint> = z.infer<(typeof STATUSPAGE_SCHEMAS)[E]>;

/** The object an endpoint answers, keys in Statuspage's order. */
export function statuspageView<E extends StatuspageEndpoint>(snapshot: Snapshot, endpoint: E): StatuspageAnswer<E>;
export function statuspageView(snapshot: Snapshot, endpoint: StatuspageEndpoint): StatuspageAnswer<StatuspageEndpoint> {
  const view = new View(snapshot);
  const page = view.page();
  switch (endpoint) {
    case 'summary':
      return {
        page,
        components: view.components,
        incidents: view.unresolved(),
        scheduled_maintenances: view.maintenances(),
        status: view.status(),
      };
    case 'status':
      return { page, status: view.status() };
    case 'components':
      return { page, components: view.components };
    case 'incidents':
      return { page, incidents: view.incidents() };
    case 'unresolved':
      return { page, incidents: view.unresolved() };
    case 'maintenances':
      return {
        page,
        scheduled_maintenances: [...view.maintenances()].sort(bySchedule).reverse().slice(0, STATUSPAGE_LIST_MAX),
      };
    case 'upcoming':
      return { page, scheduled_maintenances: view.maintenances().filter((m) => m.status === 'scheduled') };
    case 'active':
      return { page, scheduled_maintenances: view.maintenances().filter((m) => m.status === 'in_progress') };
  }
}
