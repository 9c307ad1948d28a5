// The audit log as TanStack Query queries: its entries a page at a time, and which of the objects it names still
// exist (so the screen links only to those). Keys: ['org', <organization>, 'audit', …] (query-keys.ts).
import { infiniteQueryOptions, queryOptions } from '@tanstack/react-query';
import { api, call, inOrganization, isApiError } from './client';
import { organizationScope } from './query-keys';
import type { components } from './schema';

export type AuditEntry = components['schemas']['AuditEntry'];
export type AuditFilters = { actor?: string; objectType?: string };

const PAGE = 50;

export const auditKeys = {
  all: (org: string) => [...organizationScope(org), 'audit'] as const,
  log: (org: string, filters: AuditFilters) => [...auditKeys.all(org), 'log', filters] as const,
  existing: (org: string, objectType: string) => [...auditKeys.all(org), 'existing', objectType] as const,
};

/** Newest first, a page at a time. Admins only: a 403 is the answer, not worth asking again. */
export const auditLogQuery = (org: string, filters: AuditFilters) =>
  infiniteQueryOptions({
    queryKey: auditKeys.log(org, filters),
    queryFn: ({ pageParam }) =>
      call(
        api.GET('/api/v1/audit', {
          params: { query: { ...filters, limit: PAGE, ...(pageParam ? { before: pageParam } : {}) } },
          ...inOrganization(org),
        }),
      ),
    initialPageParam: '',
    getNextPageParam: (last) => last.next ?? undefined,
    retry: (n, e) => !isApiError(e, 403) && n < 2,
  });

/** The ids that exist now, for each object type the log names that has a screen. */
const EXISTING: Record<string, (org: string) => Promise<string[]>> = {
  monitor: async (org) => (await call(api.GET('/api/v1/monitors', inOrganization(org)))).monitors.map((m) => m.id),
  page: async (org) => (await call(api.GET('/api/v1/pages', inOrganization(org)))).pages.map((p) => p.id),
  relay: async (org) => (await call(api.GET('/api/v1/relays', inOrganization(org)))).relays.map((r) => r.id),
  'notification-channel': async (org) =>
    (await call(api.GET('/api/v1/notification-channels', inOrganization(org)))).channels.map((c) => c.id),
  'api-key': async (org) =>
    (await call(api.GET('/api/v1/api-keys', inOrganization(org)))).apiKeys
      .filter((k) => k.revokedAt === null)
      .map((k) => k.id),
  member: async (org) => (await call(api.GET('/api/v1/members', inOrganization(org)))).members.map((m) => m.id),
  invitation: async (org) =>
    (await call(api.GET('/api/v1/invitations', inOrganization(org)))).invitations.map((i) => i.id),
  organization: async (org) => [(await call(api.GET('/api/v1/organization', inOrganization(org)))).id],
};

/** Which objects of a type exist now (none for a type without a screen), read once per type for the whole log. */
export const existingObjectsQuery = (org: string, objectType: string) =>
  queryOptions({
    queryKey: auditKeys.existing(org, objectType),
    queryFn: () => EXISTING[objectType]?.(org) ?? Promise.resolve([]),
    enabled: objectType in EXISTING,
    staleTime: 30_000,
    retry: false,
  });
