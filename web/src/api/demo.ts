// The built-in demo as the signed-in user sees it (GET /api/v1/demo: there or not, theirs to remove or not), and
// removing it (DELETE /api/v1/demo). The user's own answer, not an organization's: it depends on what they own.
import { type QueryClient, queryOptions } from '@tanstack/react-query';
import { api, call } from './client';
import { ACCOUNT_SCOPE } from './query-keys';

export const demoKeys = { status: [...ACCOUNT_SCOPE, 'demo'] as const };

export const demoQuery = queryOptions({
  queryKey: demoKeys.status,
  queryFn: () => call(api.GET('/api/v1/demo')),
  staleTime: 60_000,
});

/** Removes the demo; the notice that offered it then reads that it is gone. */
export async function removeDemo(queryClient: QueryClient): Promise<void> {
  await call(api.DELETE('/api/v1/demo'));
  queryClient.setQueryData(demoKeys.status, { present: false, removable: false });
}
