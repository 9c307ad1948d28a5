// Monitors as TanStack Query queries: a filter's pages of the list, their sparklines, the picker's search, one monitor
// with its stats, checks and state changes, the monitor types; and what a write on a monitor refreshes. Keys:
// ['org', <organization>, 'monitors', …] (query-keys.ts); the live stream (live.ts) patches what they hold. The
// Monitors screen's list, which combines several of these, is monitor-list.ts (kept out of the initial bundle).
import { infiniteQueryOptions, keepPreviousData, type QueryClient, queryOptions } from '@tanstack/react-query';
import type { MonitorSearch } from '../screens/monitors-search';
import { api, call, inOrganization } from './client';
import { organizationKeyOf } from './organization';
import { organizationScope, SERVER_SCOPE } from './query-keys';
import { roleAtLeast, useOrganizationRole } from './role';
import type { MonitorPage } from './types';

export type StatsRange = '24h' | '7d' | '30d' | '90d';
export const STATS_RANGES: readonly { value: StatsRange; label: string }[] = [
  { value: '24h', label: '24 h' },
  { value: '7d', label: '7 d' },
  { value: '30d', label: '30 d' },
  { value: '90d', label: '90 d' },
];

export const MONITOR_PAGE_SIZE = 200;
const CHECKS_PAGE = 20;
const STATES_PAGE = 20;
const PICKER_RESULTS = 20;

export const monitorKeys = {
  all: (org: string) => [...organizationScope(org), 'monitors'] as const,
  lists: (org: string) => [...monitorKeys.all(org), 'list'] as const,
  list: (org: string, search: MonitorSearch) => [...monitorKeys.lists(org), search] as const,
  sparklines: (org: string, ids: readonly string[]) => [...monitorKeys.all(org), 'sparklines', ids] as const,
  picker: (org: string, q: string) => [...monitorKeys.all(org), 'picker', q] as const,
  /** Every monitor's own queries, by id. */
  each: (org: string) => [...monitorKeys.all(org), 'monitor'] as const,
  /** Everything cached of one monitor: itself, its stats, checks and state changes. */
  one: (org: string, id: string) => [...monitorKeys.each(org), id] as const,
  detail: (org: string, id: string) => [...monitorKeys.one(org, id), 'detail'] as const,
  stats: (org: string, id: string, range: StatsRange) => [...monitorKeys.one(org, id), 'stats', range] as const,
  checks: (org: string, id: string) => [...monitorKeys.one(org, id), 'checks'] as const,
  states: (org: string, id: string) => [...monitorKeys.one(org, id), 'states'] as const,
  latency: (org: string, id: string, hours: number) => [...monitorKeys.one(org, id), 'latency', hours] as const,
};

/** A filter's pages of monitors (the Monitors screen, and its route, which asks for the first page with the screen's code). */
export const monitorListQuery = (org: string, search: MonitorSearch) =>
  infiniteQueryOptions({
    queryKey: monitorKeys.list(org, search),
    queryFn: ({ pageParam }) =>
      call(
        api.GET('/api/v1/monitors', {
          params: { query: { ...search, limit: MONITOR_PAGE_SIZE, ...(pageParam ? { cursor: pageParam } : {}) } },
          ...inOrganization(org),
        }),
      ),
    initialPageParam: '',
    getNextPageParam: (last: MonitorPage) => last.nextCursor ?? undefined,
  });

/** For the route: the list's first page in the organization in use. Not awaited by the caller. */
export async function prefetchMonitorList(queryClient: QueryClient, search: MonitorSearch): Promise<void> {
  await queryClient.prefetchInfiniteQuery(monitorListQuery(await organizationKeyOf(queryClient), search));
}

export const monitorQuery = (org: string, id: string) =>
  queryOptions({
    queryKey: monitorKeys.detail(org, id),
    queryFn: () => call(api.GET('/api/v1/monitors/{id}', { params: { path: { id } }, ...inOrganization(org) })),
  });

/** The types and their JSON Schemas: the same for the whole server, so fetched once. */
export const monitorTypesQuery = queryOptions({
  queryKey: [...SERVER_SCOPE, 'monitor-types'],
  queryFn: () => call(api.GET('/api/v1/monitor-types')),
  staleTime: Number.POSITIVE_INFINITY,
});

/** Up to 20 monitors whose name or key holds `q` (the component form's picker). */
export const monitorSearchQuery = (org: string, q: string) =>
  queryOptions({
    queryKey: monitorKeys.picker(org, q),
    queryFn: () =>
      call(
        api.GET('/api/v1/monitors', {
          params: { query: { q: q.trim() || undefined, limit: PICKER_RESULTS } },
          ...inOrganization(org),
        }),
      ),
    placeholderData: keepPreviousData,
    staleTime: 30_000,
  });

export const monitorStatsQuery = (org: string, id: string, range: StatsRange) =>
  queryOptions({
    queryKey: monitorKeys.stats(org, id, range),
    queryFn: () =>
      call(
        api.GET('/api/v1/monitors/{id}/stats', { params: { path: { id }, query: { range } }, ...inOrganization(org) }),
      ),
  });

/** Hourly latency per location over the last `hours` (1 to 168): one series per location, the monitor's own place first. */
export const monitorLatencyQuery = (org: string, id: string, hours: number) =>
  queryOptions({
    queryKey: monitorKeys.latency(org, id, hours),
    queryFn: () =>
      call(
        api.GET('/api/v1/monitors/{id}/latency', {
          params: { path: { id }, query: { hours } },
          ...inOrganization(org),
        }),
      ),
  });

/** The latest checks, newest first, older ones a page at a time. */
export const recentChecksQuery = (org: string, id: string) =>
  infiniteQueryOptions({
    queryKey: monitorKeys.checks(org, id),
    queryFn: ({ pageParam }) =>
      call(
        api.GET('/api/v1/monitors/{id}/history', {
          params: {
            path: { id },
            query: { hours: 24 * 30, limit: CHECKS_PAGE, ...(pageParam ? { cursor: pageParam } : {}) },
          },
          ...inOrganization(org),
        }),
      ),
    initialPageParam: '',
    getNextPageParam: (last) => last.nextCursor ?? undefined,
  });

/** The state changes, newest first, older ones a page at a time. */
export const stateHistoryQuery = (org: string, id: string) =>
  infiniteQueryOptions({
    queryKey: monitorKeys.states(org, id),
    queryFn: ({ pageParam }) =>
      call(
        api.GET('/api/v1/monitors/{id}/states', {
          params: { path: { id }, query: { limit: STATES_PAGE, ...(pageParam ? { cursor: pageParam } : {}) } },
          ...inOrganization(org),
        }),
      ),
    initialPageParam: '',
    getNextPageParam: (last) => last.nextCursor ?? undefined,
  });

/** The last 24 h of latency of a batch of monitors; a server without the route answers 404: the column stays empty. */
export const sparklinesQuery = (org: string, ids: readonly string[]) =>
  queryOptions({
    queryKey: monitorKeys.sparklines(org, ids),
    queryFn: () =>
      call(
        api.GET('/api/v1/monitors/sparklines', { params: { query: { ids: ids.join(',') } }, ...inOrganization(org) }),
      ),
    staleTime: 60_000,
    retry: false,
  });

/**
 * Types whose checks report players: their stats have a players series, and their form has player alerts (the rules
 * read `players` and, where the protocol gives them, the maximum and the queue).
 */
export const PLAYER_TYPES: ReadonlySet<string> = new Set([
  'minecraft-java',
  'minecraft-bedrock',
  'source',
  'fivem',
  'rust-webrcon',
  'gamedig',
  'discord',
]);

/** Whether the user is an editor (or more) of the organization in use: the API refuses monitor writes below that. */
export function useCanEditMonitors(): boolean {
  return roleAtLeast(useOrganizationRole().role, 'editor');
}

/** After creating, changing, checking or pausing a monitor: everything cached of the organization's monitors. */
export function monitorsChanged(queryClient: QueryClient, org: string): Promise<void> {
  return queryClient.invalidateQueries({ queryKey: monitorKeys.all(org) });
}

/** A deleted monitor: nothing of it is kept, and the lists lose it. */
export function monitorDeleted(queryClient: QueryClient, org: string, id: string): Promise<void> {
  queryClient.removeQueries({ queryKey: monitorKeys.one(org, id) });
  return monitorsChanged(queryClient, org);
}
