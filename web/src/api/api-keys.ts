// The organization's API keys as a TanStack Query query, and what creating or revoking one refreshes.
// Keys: ['org', <organization>, 'api-keys'] (query-keys.ts).
import { type QueryClient, queryOptions } from '@tanstack/react-query';
import { api, call, inOrganization, isApiError } from './client';
import { organizationScope } from './query-keys';
import type { components } from './schema';

export type ApiKeyView = components['schemas']['ApiKey'];

export const apiKeyKeys = {
  list: (org: string) => [...organizationScope(org), 'api-keys'] as const,
};

/** GET /api/v1/api-keys: admins only; a 403 is the answer, not worth asking again. */
export const apiKeysQuery = (org: string) =>
  queryOptions({
    queryKey: apiKeyKeys.list(org),
    queryFn: () => call(api.GET('/api/v1/api-keys', inOrganization(org))),
    retry: (n, e) => !isApiError(e, 403) && n < 2,
  });

export function apiKeysChanged(queryClient: QueryClient, org: string): Promise<void> {
  return queryClient.invalidateQueries({ queryKey: apiKeyKeys.list(org) });
}
