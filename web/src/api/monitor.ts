// One monitor as its screens need it: the monitor, its stats, checks and state changes (paged), the monitor types and
// their schemas, and whether the signed-in user may change things in this organization.
import { queryOptions, useInfiniteQuery, useQuery } from '@tanstack/react-query';
import { api, call } from './client';
import { roleAtLeast, useOrganizationRole } from './role';

export type StatsRange = '24h' | '7d' | '30d' | '90d';
export const STATS_RANGES: readonly { value: StatsRange; label: string }[] = [
  { value: '24h', label: '24 h' },
  { value: '7d', label: '7 d' },
  { value: '30d', label: '30 d' },
  { value: '90d', label: '90 d' },
];

const CHECKS_PAGE = 20;
const STATES_PAGE = 20;

/** Every key under ['monitor', id] is the monitor's: a write invalidates them together. */
export const monitorKey = (id: string) => ['monitor', id] as const;

export const monitorQuery = (id: string) =>
  queryOptions({ queryKey: [...monitorKey(id), 'self'], queryFn: () => call(api.GET('/api/v1/monitors/{id}', { params: { path: { id } } })) });

/** The types and their JSON Schemas: the same for the whole process, so fetched once. */
export const monitorTypesQuery = queryOptions({
  queryKey: ['monitor-types'],
  queryFn: () => call(api.GET('/api/v1/monitor-types')),
  staleTime: Number.POSITIVE_INFINITY,
});

export function useMonitorStats(id: string, range: StatsRange) {
  return useQuery({
    queryKey: [...monitorKey(id), 'stats', range],
    queryFn: () => call(api.GET('/api/v1/monitors/{id}/stats', { params: { path: { id }, query: { range } } })),
  });
}

/** The latest checks, newest first, older ones a page at a time. */
export function useRecentChecks(id: string) {
  return useInfiniteQuery({
    queryKey: [...monitorKey(id), 'checks'],
    queryFn: ({ pageParam }) =>
      call(api.GET('/api/v1/monitors/{id}/history', { params: { path: { id }, query: { hours: 24 * 30, limit: CHECKS_PAGE, ...(pageParam ? { cursor: pageParam } : {}) } } })),
    initialPageParam: '',
    getNextPageParam: (last) => last.nextCursor ?? undefined,
  });
}

/** The state changes, newest first, older ones a page at a time. */
export function useStateHistory(id: string) {
  return useInfiniteQuery({
    queryKey: [...monitorKey(id), 'states'],
    queryFn: ({ pageParam }) =>
      call(api.GET('/api/v1/monitors/{id}/states', { params: { path: { id }, query: { limit: STATES_PAGE, ...(pageParam ? { cursor: pageParam } : {}) } } })),
    initialPageParam: '',
    getNextPageParam: (last) => last.nextCursor ?? undefined,
  });
}

/** Whether the user is an editor (or more) of the organization in use: the API refuses monitor writes below that. */
export function useCanEditMonitors(): boolean {
  return roleAtLeast(useOrganizationRole().role, 'editor');
}
