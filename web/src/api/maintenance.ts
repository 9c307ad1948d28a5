// Maintenance windows, of one page or of the whole organization, as TanStack Query queries, and what a write on one
// refreshes. Keys: ['org', <organization>, 'maintenance', …] (query-keys.ts).
import { type QueryClient, queryOptions } from '@tanstack/react-query';
import { api, call, inOrganization } from './client';
import { organizationScope } from './query-keys';
import type { components } from './schema';

export type MaintenanceView = components['schemas']['Maintenance'];
export type OrganizationMaintenance = components['schemas']['OrganizationMaintenance'];

export const maintenanceKeys = {
  all: (org: string) => [...organizationScope(org), 'maintenance'] as const,
  /** Not by `endingAfter`: a screen fixes it for its life, and coming back shows the windows read last time at once. */
  list: (org: string, slug: string | undefined) => [...maintenanceKeys.all(org), { page: slug ?? null }] as const,
};

/** Windows ending after `endingAfter` or later, of a page or (slug undefined) of the organization, soonest first. */
export const maintenanceQuery = (org: string, slug: string | undefined, endingAfter: number) =>
  queryOptions({
    queryKey: maintenanceKeys.list(org, slug),
    queryFn: async (): Promise<OrganizationMaintenance[]> => {
      if (!slug)
        return (
          await call(api.GET('/api/v1/maintenance', { params: { query: { endingAfter } }, ...inOrganization(org) }))
        ).maintenance;
      const [page, list] = await Promise.all([
        call(api.GET('/api/v1/pages/{slug}', { params: { path: { slug } }, ...inOrganization(org) })),
        call(api.GET('/api/v1/pages/{slug}/maintenance', { params: { path: { slug } }, ...inOrganization(org) })),
      ]);
      const ref = { slug: page.slug, title: page.title };
      return list.maintenance.filter((m) => m.endsAt >= endingAfter).map((m) => ({ ...m, page: ref }));
    },
  });

/** After scheduling, changing or cancelling a window: every maintenance list of the organization. */
export function maintenanceChanged(queryClient: QueryClient, org: string): Promise<void> {
  return queryClient.invalidateQueries({ queryKey: maintenanceKeys.all(org) });
}
