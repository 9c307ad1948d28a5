// Pages and what they hold (components, incidents, maintenance) as TanStack Query queries, and the one way every
// write here refreshes what it changed.
import { type QueryClient, queryOptions } from '@tanstack/react-query';
import { api, call } from './client';
import type { components } from './schema';

type Schemas = components['schemas'];
export type PageView = Schemas['Page'];
export type PagePatch = Schemas['PagePatch'];
export type ComponentView = Schemas['Component'];
export type IncidentView = Schemas['Incident'];
export type OrganizationIncident = Schemas['OrganizationIncident'];
export type MaintenanceView = Schemas['Maintenance'];
export type OrganizationMaintenance = Schemas['OrganizationMaintenance'];
export type IncidentStatus = IncidentView['status'];
export type IncidentImpact = IncidentView['impact'];

export const INCIDENT_STATUSES: readonly { value: IncidentStatus; label: string }[] = [
  { value: 'investigating', label: 'Investigating' },
  { value: 'identified', label: 'Identified' },
  { value: 'monitoring', label: 'Monitoring' },
  { value: 'resolved', label: 'Resolved' },
];
export const INCIDENT_IMPACTS: readonly { value: IncidentImpact; label: string }[] = [
  { value: 'none', label: 'None' },
  { value: 'minor', label: 'Minor' },
  { value: 'major', label: 'Major' },
  { value: 'critical', label: 'Critical' },
];

/** GET /api/v1/pages (the same key the Monitors screen's page filter uses). */
export const pagesQuery = queryOptions({ queryKey: ['pages'], queryFn: () => call(api.GET('/api/v1/pages')) });

export const pageQuery = (slug: string) =>
  queryOptions({ queryKey: ['pages', slug, 'page'], queryFn: () => call(api.GET('/api/v1/pages/{slug}', { params: { path: { slug } } })) });

export const componentsQuery = (slug: string) =>
  queryOptions({
    queryKey: ['pages', slug, 'components'],
    queryFn: () => call(api.GET('/api/v1/pages/{slug}/components', { params: { path: { slug } } })),
    select: (data) => data.components,
  });

/** A page's incidents, or (slug undefined) the organization's: open ones, or the latest resolved. */
export const incidentsQuery = (slug: string | undefined, state: 'open' | 'resolved') =>
  queryOptions({
    queryKey: slug ? ['pages', slug, 'incidents', state] : ['incidents', state],
    queryFn: async (): Promise<OrganizationIncident[]> => {
      if (!slug) return (await call(api.GET('/api/v1/incidents', { params: { query: { state, limit: state === 'open' ? 200 : 20 } } }))).incidents;
      const [page, list] = await Promise.all([
        call(api.GET('/api/v1/pages/{slug}', { params: { path: { slug } } })),
        call(api.GET('/api/v1/pages/{slug}/incidents', { params: { path: { slug }, query: { limit: 200 } } })),
      ]);
      const ref = { slug: page.slug, title: page.title };
      return list.incidents.filter((i) => (i.status === 'resolved') === (state === 'resolved')).map((i) => ({ ...i, page: ref }));
    },
  });

/** Windows ending in the last 30 days or later, of a page or (slug undefined) of the organization, soonest first. */
export const maintenanceQuery = (slug: string | undefined, endingAfter: number) =>
  queryOptions({
    queryKey: slug ? ['pages', slug, 'maintenance'] : ['maintenance'],
    queryFn: async (): Promise<OrganizationMaintenance[]> => {
      if (!slug) return (await call(api.GET('/api/v1/maintenance', { params: { query: { endingAfter } } }))).maintenance;
      const [page, list] = await Promise.all([
        call(api.GET('/api/v1/pages/{slug}', { params: { path: { slug } } })),
        call(api.GET('/api/v1/pages/{slug}/maintenance', { params: { path: { slug } } })),
      ]);
      const ref = { slug: page.slug, title: page.title };
      return list.maintenance.filter((m) => m.endsAt >= endingAfter).map((m) => ({ ...m, page: ref }));
    },
  });

/** After a write on a page: everything cached of it, and the organization's lists that show it. */
export function refreshPage(queryClient: QueryClient, slug: string): Promise<unknown> {
  return Promise.all([
    queryClient.invalidateQueries({ queryKey: ['pages', slug] }),
    queryClient.invalidateQueries({ queryKey: ['pages'], exact: true }),
    queryClient.invalidateQueries({ queryKey: ['incidents'] }),
    queryClient.invalidateQueries({ queryKey: ['maintenance'] }),
  ]);
}

/** The public address of a page, on Warden's own host. */
export const livePageUrl = (slug: string) => `/s/${encodeURIComponent(slug)}`;
