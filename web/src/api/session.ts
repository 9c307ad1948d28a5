// The signed-in user and the sign-in options as TanStack Query queries, and signing out.
import { type QueryClient, queryOptions } from '@tanstack/react-query';
import { api, call } from './client';

/** GET /api/v1/auth/me: the user and their organizations; a 401 means signed out. */
export const meQuery = queryOptions({
  queryKey: ['auth', 'me'],
  queryFn: () => call(api.GET('/api/v1/auth/me')),
  staleTime: 60_000,
  retry: false,
});

/** GET /api/v1/auth/config: first run, sign-up mode, the OpenID Connect provider. Public. */
export const authConfigQuery = queryOptions({
  queryKey: ['auth', 'config'],
  queryFn: () => call(api.GET('/api/v1/auth/config')),
  staleTime: 5 * 60_000,
});

/** Ends the session on the server (the cookie is cleared there) and forgets everything cached for the user. */
export async function signOut(queryClient: QueryClient): Promise<void> {
  await call(api.POST('/api/v1/auth/logout'));
  queryClient.clear();
}
