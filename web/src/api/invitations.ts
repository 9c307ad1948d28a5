// The organization's pending invitations as a TanStack Query query, and what inviting or revoking refreshes.
// Keys: ['org', <organization>, 'invitations'] (query-keys.ts). An invitation's preview, read by its token, is the
// session's (session.ts).
import { type QueryClient, queryOptions } from '@tanstack/react-query';
import { api, call, inOrganization } from './client';
import { organizationScope } from './query-keys';

export const invitationKeys = {
  list: (org: string) => [...organizationScope(org), 'invitations'] as const,
};

/** GET /api/v1/invitations: the ones nobody accepted yet. */
export const invitationsQuery = (org: string) =>
  queryOptions({
    queryKey: invitationKeys.list(org),
    queryFn: () => call(api.GET('/api/v1/invitations', inOrganization(org))),
  });

export function invitationsChanged(queryClient: QueryClient, org: string): Promise<void> {
  return queryClient.invalidateQueries({ queryKey: invitationKeys.list(org) });
}
