// The signed-in user as TanStack Query queries (who they are, their sessions, the sign-in options, an invitation's
// preview) and what changes them. Not per organization: these keys sit under ['auth'] (query-keys.ts).
import { type QueryClient, queryOptions } from '@tanstack/react-query';
import { api, call } from './client';
import { ACCOUNT_SCOPE } from './query-keys';
import type { Me } from './types';

type AuthConfig = Awaited<ReturnType<typeof authConfigQuery.queryFn & {}>>;

export const sessionKeys = {
  me: [...ACCOUNT_SCOPE, 'me'] as const,
  config: [...ACCOUNT_SCOPE, 'config'] as const,
  sessions: [...ACCOUNT_SCOPE, 'sessions'] as const,
  invitation: (token: string | undefined) => [...ACCOUNT_SCOPE, 'invitation', token] as const,
  localSetupCode: (url: string | null) => [...ACCOUNT_SCOPE, 'local-setup-code', url] as const,
};

/** GET /api/v1/auth/me: the user and their organizations; a 401 means signed out. */
export const meQuery = queryOptions({
  queryKey: sessionKeys.me,
  queryFn: () => call(api.GET('/api/v1/auth/me')),
  staleTime: 60_000,
  retry: false,
});

/** GET /api/v1/auth/config: first run, sign-up mode, the OpenID Connect provider. Public. */
export const authConfigQuery = queryOptions({
  queryKey: sessionKeys.config,
  queryFn: () => call(api.GET('/api/v1/auth/config')),
  staleTime: 5 * 60_000,
});

/**
 * The setup code the server's local setup listener hands to a setup screen opened on the server's own machine
 * (`localSetup` of the auth config; WARDEN_LOCAL_SETUP). Asked once: each answer replaces the previous code.
 */
export const localSetupCodeQuery = (url: string | null) =>
  queryOptions({
    queryKey: sessionKeys.localSetupCode(url),
    enabled: url !== null,
    staleTime: Number.POSITIVE_INFINITY,
    retry: false,
    queryFn: async () => {
      const res = await fetch(url as string, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: '{}',
        credentials: 'omit',
      });
      if (!res.ok) throw new Error(`the local setup listener answered ${res.status}`);
      return ((await res.json()) as { code: string }).code;
    },
  });

/** The browsers signed in as the user. */
export const sessionsQuery = queryOptions({
  queryKey: sessionKeys.sessions,
  queryFn: () => call(api.GET('/api/v1/auth/sessions')),
});

/** Where an invitation leads (public: the token is the credential). */
export const invitationPreviewQuery = (token: string | undefined) =>
  queryOptions({
    queryKey: sessionKeys.invitation(token),
    queryFn: () => call(api.GET('/api/v1/auth/invitations/{token}', { params: { path: { token: token ?? '' } } })),
    enabled: token !== undefined,
    retry: false,
  });

/** An answer that is the user (sign-in, sign-up, setup, a profile change): the header and the guard use it at once. */
export function rememberMe(queryClient: QueryClient, me: Me): void {
  queryClient.setQueryData(sessionKeys.me, me);
  // Someone is signed in, so an account exists: a remembered "setup required" (the first run's) is over.
  queryClient.setQueryData(sessionKeys.config, (config: AuthConfig | undefined) =>
    config?.setupRequired ? { ...config, setupRequired: false } : config,
  );
}

/** After a change to the user or their memberships: read them again. */
export function meChanged(queryClient: QueryClient): Promise<void> {
  return queryClient.invalidateQueries({ queryKey: sessionKeys.me });
}

/** The user as the server has them now (not the cached copy). */
export function freshMe(queryClient: QueryClient): Promise<Me> {
  return queryClient.fetchQuery({ ...meQuery, staleTime: 0 });
}

export function sessionsChanged(queryClient: QueryClient): Promise<void> {
  return queryClient.invalidateQueries({ queryKey: sessionKeys.sessions });
}

/** Ends the session on the server (the cookie is cleared there) and forgets everything cached for the user. */
export async function signOut(queryClient: QueryClient): Promise<void> {
  await call(api.POST('/api/v1/auth/logout'));
  queryClient.clear();
}
