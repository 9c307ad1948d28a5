// A page's subscribers (admins only: they are people's addresses) as a TanStack Query query, and the writes on one:
// approve a Slack webhook awaiting approval, remove any. Keys: ['org', <organization>, 'subscribers', <page>].
import { type QueryClient, queryOptions } from '@tanstack/react-query';
import { api, call, inOrganization } from './client';
import { organizationScope } from './query-keys';
import type { components } from './schema';

export type SubscriberView = components['schemas']['PageSubscriber'];

const subscriberKeys = {
  ofPage: (org: string, slug: string) => [...organizationScope(org), 'subscribers', slug] as const,
};

/** The first 500 of a page's subscribers, with the counts. */
export const subscribersQuery = (org: string, slug: string) =>
  queryOptions({
    queryKey: subscriberKeys.ofPage(org, slug),
    queryFn: () =>
      call(
        api.GET('/api/v1/pages/{slug}/subscribers', {
          params: { path: { slug }, query: { limit: '500' } },
          ...inOrganization(org),
        }),
      ),
  });

export function approveSubscriber(org: string, slug: string, id: string): Promise<SubscriberView> {
  return call(
    api.POST('/api/v1/pages/{slug}/subscribers/{id}/approve', {
      params: { path: { slug, id } },
      ...inOrganization(org),
    }),
  );
}

export function deleteSubscriber(org: string, slug: string, id: string): Promise<unknown> {
  return call(
    api.DELETE('/api/v1/pages/{slug}/subscribers/{id}', { params: { path: { slug, id } }, ...inOrganization(org) }),
  );
}

export function subscribersChanged(queryClient: QueryClient, org: string, slug: string): Promise<void> {
  return queryClient.invalidateQueries({ queryKey: subscriberKeys.ofPage(org, slug) });
}
