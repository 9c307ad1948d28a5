// The monitor list's query (a filter's pages of monitors), shared by the Monitors screen and its route, which starts
// reading the first page while the screen's code is still loading.
import { infiniteQueryOptions } from '@tanstack/react-query';
import type { MonitorSearch } from '../screens/monitors-search';
import { api, call } from './client';
import type { MonitorPage } from './types';

export const MONITOR_PAGE_SIZE = 200;

export const monitorListQuery = (search: MonitorSearch) =>
  infiniteQueryOptions({
    queryKey: ['monitors', 'list', search],
    queryFn: ({ pageParam }) =>
      call(api.GET('/api/v1/monitors', { params: { query: { ...search, limit: MONITOR_PAGE_SIZE, ...(pageParam ? { cursor: pageParam } : {}) } } })),
    initialPageParam: '',
    getNextPageParam: (last: MonitorPage) => last.nextCursor ?? undefined,
  });
