// The organization's members as a TanStack Query query, and what a change of role or a removal refreshes.
// Keys: ['org', <organization>, 'members'] (query-keys.ts).
import { type QueryClient, queryOptions } from '@tanstack/react-query';
import { api, call, inOrganization } from './client';
import { organizationScope } from './query-keys';
import type { components } from './schema';
import { meChanged } from './session';

export type MemberView = components['schemas']['Member'];

export const memberKeys = {
  list: (org: string) => [...organizationScope(org), 'members'] as const,
};

/** GET /api/v1/members (the Members screen, the actor filter of the audit log). */
export const membersQuery = (org: string) =>
  queryOptions({
    queryKey: memberKeys.list(org),
    queryFn: () => call(api.GET('/api/v1/members', inOrganization(org))),
  });

/** After a role change or a removal; `self`: it was the user's own membership, so their role (or organizations) moved too. */
export function membersChanged(queryClient: QueryClient, org: string, self = false): Promise<unknown> {
  return Promise.all([
    queryClient.invalidateQueries({ queryKey: memberKeys.list(org) }),
    self ? meChanged(queryClient) : undefined,
  ]);
}
