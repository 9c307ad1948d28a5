// Status pages as TanStack Query queries (the list, one page, its uploaded images) and what each write on a page
// refreshes. Keys: ['org', <organization>, 'pages', …] (query-keys.ts).
import { type QueryClient, queryOptions } from '@tanstack/react-query';
import { api, call, inOrganization } from './client';
import { componentKeys } from './components';
import { incidentKeys } from './incidents';
import { maintenanceKeys } from './maintenance';
import { organizationScope } from './query-keys';
import type { components } from './schema';

export type PageView = components['schemas']['Page'];
export type PagePatch = components['schemas']['PagePatch'];

export const pageKeys = {
  all: (org: string) => [...organizationScope(org), 'pages'] as const,
  list: (org: string) => [...pageKeys.all(org), 'list'] as const,
  /** Everything cached of one page (its own answer and its images). */
  one: (org: string, slug: string) => [...pageKeys.all(org), 'page', slug] as const,
  detail: (org: string, slug: string) => [...pageKeys.one(org, slug), 'detail'] as const,
  assets: (org: string, slug: string) => [...pageKeys.one(org, slug), 'assets'] as const,
};

/** GET /api/v1/pages (the list screen, and the page filters of Monitors, Incidents and Maintenance). */
export const pagesQuery = (org: string) =>
  queryOptions({ queryKey: pageKeys.list(org), queryFn: () => call(api.GET('/api/v1/pages', inOrganization(org))) });

export const pageQuery = (org: string, slug: string) =>
  queryOptions({
    queryKey: pageKeys.detail(org, slug),
    queryFn: () => call(api.GET('/api/v1/pages/{slug}', { params: { path: { slug } }, ...inOrganization(org) })),
  });

/** The page's uploaded logo and favicon. */
export const pageAssetsQuery = (org: string, slug: string) =>
  queryOptions({
    queryKey: pageKeys.assets(org, slug),
    queryFn: () => call(api.GET('/api/v1/pages/{slug}/assets', { params: { path: { slug } }, ...inOrganization(org) })),
  });

/** A new page: the list. */
export function pageCreated(queryClient: QueryClient, org: string): Promise<void> {
  return queryClient.invalidateQueries({ queryKey: pageKeys.list(org), exact: true });
}

/** After a write on a page (settings, branding, images, password, domain): the page, the list, and the incidents and maintenance that name it. */
export function pageChanged(queryClient: QueryClient, org: string, slug: string): Promise<unknown> {
  return Promise.all([
    queryClient.invalidateQueries({ queryKey: pageKeys.one(org, slug) }),
    queryClient.invalidateQueries({ queryKey: pageKeys.list(org), exact: true }),
    queryClient.invalidateQueries({ queryKey: incidentKeys.all(org) }),
    queryClient.invalidateQueries({ queryKey: maintenanceKeys.all(org) }),
  ]);
}

/** A deleted page: nothing of it is kept; the list and the organization's incidents and maintenance lose it. */
export function pageDeleted(queryClient: QueryClient, org: string, slug: string): Promise<unknown> {
  queryClient.removeQueries({ queryKey: pageKeys.one(org, slug) });
  queryClient.removeQueries({ queryKey: componentKeys.ofPage(org, slug) });
  return Promise.all([
    queryClient.invalidateQueries({ queryKey: pageKeys.list(org), exact: true }),
    queryClient.invalidateQueries({ queryKey: incidentKeys.all(org) }),
    queryClient.invalidateQueries({ queryKey: maintenanceKeys.all(org) }),
  ]);
}

/** The public address of a page, on Warden's own host. */
export const livePageUrl = (slug: string) => `/s/${encodeURIComponent(slug)}`;
