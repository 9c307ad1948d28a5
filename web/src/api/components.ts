// A status page's components as a TanStack Query query, what a write on them refreshes, and the order shown at once
// while its request is under way. Keys: ['org', <organization>, 'components', <page>] (query-keys.ts).
import { type QueryClient, queryOptions } from '@tanstack/react-query';
import { boardKeys } from './boards';
import { api, call, inOrganization } from './client';
import { incidentKeys } from './incidents';
import { maintenanceKeys } from './maintenance';
import { organizationScope } from './query-keys';
import type { components } from './schema';

export type ComponentView = components['schemas']['Component'];
type ComponentList = { components: ComponentView[] };

export const componentKeys = {
  all: (org: string) => [...organizationScope(org), 'components'] as const,
  ofPage: (org: string, slug: string) => [...componentKeys.all(org), slug] as const,
};

/** A page's components in their order (the page editor, the affected-components pickers, the Monitors page filter). */
export const componentsQuery = (org: string, slug: string) =>
  queryOptions({
    queryKey: componentKeys.ofPage(org, slug),
    queryFn: () =>
      call(api.GET('/api/v1/pages/{slug}/components', { params: { path: { slug } }, ...inOrganization(org) })),
    select: (data) => data.components,
  });

/** After adding, changing, ordering or removing a component: the page's list, and the incidents, maintenance and boards that name components. */
export function componentsChanged(queryClient: QueryClient, org: string, slug: string): Promise<unknown> {
  return Promise.all([
    queryClient.invalidateQueries({ queryKey: componentKeys.ofPage(org, slug) }),
    queryClient.invalidateQueries({ queryKey: incidentKeys.all(org) }),
    queryClient.invalidateQueries({ queryKey: maintenanceKeys.all(org) }),
    queryClient.invalidateQueries({ queryKey: boardKeys.ofPage(org, slug) }),
  ]);
}

/** Shows `next` as the page's order before the server has it; returns what puts the previous order back. */
export async function showComponentOrder(
  queryClient: QueryClient,
  org: string,
  slug: string,
  next: readonly ComponentView[],
): Promise<() => void> {
  const key = componentKeys.ofPage(org, slug);
  await queryClient.cancelQueries({ queryKey: key });
  const previous = queryClient.getQueryData<ComponentList>(key);
  queryClient.setQueryData<ComponentList>(key, { components: next.map((c, i) => ({ ...c, order: i })) });
  return () => {
    if (previous) queryClient.setQueryData(key, previous);
  };
}
