// The monitor list as the Monitors screen needs it: filtered and paged by the server when it supports that (the answer
// carries nextCursor or total), otherwise the whole list filtered here; and the 24 h sparklines of the loaded monitors.
import { useInfiniteQuery, useQueries, useQuery } from '@tanstack/react-query';
import { useMemo } from 'react';
import type { MonitorSearch } from '../screens/monitors-search';
import { api, call } from './client';
import { filterMonitors } from './monitor-filter';
import { monitorListQuery } from './monitor-list-query';
import type { MonitorView, SparklinePoint } from './types';

/** Monitor ids per sparkline request: keeps the URL short. */
const SPARKLINE_BATCH = 100;

export interface MonitorList {
  monitors: MonitorView[];
  /** All that match, when known (the server counts, or everything is loaded). */
  total: number | undefined;
  isPending: boolean;
  error: unknown;
  refetch: () => void;
  loadMore: (() => void) | undefined;
}

export function useMonitorList(search: MonitorSearch): MonitorList {
  const query = useInfiniteQuery(monitorListQuery(search));
  const pages = query.data?.pages;
  const serverFilters = pages?.[0] !== undefined && ('nextCursor' in pages[0] || 'total' in pages[0]);
  const onPage = useMonitorsOnPage(serverFilters ? undefined : search.page);
  const monitors = useMemo(() => {
    const all = pages?.flatMap((p) => p.monitors) ?? [];
    return serverFilters ? all : filterMonitors(all, search, onPage);
  }, [pages, serverFilters, search, onPage]);
  return {
    monitors,
    total: serverFilters ? pages?.[0]?.total : monitors.length,
    isPending: query.isPending || (search.page !== undefined && !serverFilters && onPage === undefined && query.isSuccess),
    error: query.error,
    refetch: () => void query.refetch(),
    loadMore: query.hasNextPage && !query.isFetchingNextPage ? () => void query.fetchNextPage() : undefined,
  };
}

/** Each loaded monitor's last 24 h of latency by id; empty while loading or when the server has no sparklines. */
export function useSparklines(ids: readonly string[]): Map<string, SparklinePoint[]> {
  // In list order: loading the next page of monitors adds a batch and leaves the earlier ones (and their cache) alone.
  const batches = useMemo(() => {
    const out: string[][] = [];
    for (let i = 0; i < ids.length; i += SPARKLINE_BATCH) out.push(ids.slice(i, i + SPARKLINE_BATCH));
    return out;
  }, [ids]);
  return useQueries({
    queries: batches.map((batch) => ({
      queryKey: ['monitors', 'sparklines', batch],
      queryFn: () => call(api.GET('/api/v1/monitors/sparklines', { params: { query: { ids: batch.join(',') } } })),
      staleTime: 60_000,
      // A server without the route answers 404 (or reads "sparklines" as a monitor id): the column stays empty.
      retry: false,
    })),
    combine: sparklinesById,
  });
}

/** Stable, so TanStack Query keeps the combined map until a batch's data changes. */
function sparklinesById(results: readonly { data?: { monitors: { id: string; points: SparklinePoint[] }[] } | undefined }[]): Map<string, SparklinePoint[]> {
  const byId = new Map<string, SparklinePoint[]>();
  for (const result of results) for (const { id, points } of result.data?.monitors ?? []) byId.set(id, points);
  return byId;
}

/** The ids of the monitors a page shows, for filtering by page here (only when the server does not). */
function useMonitorsOnPage(slug: string | undefined): Set<string> | undefined {
  const query = useQuery({
    queryKey: ['pages', slug, 'components'],
    queryFn: () => call(api.GET('/api/v1/pages/{slug}/components', { params: { path: { slug: slug ?? '' } } })),
    enabled: slug !== undefined,
  });
  return useMemo(() => (query.data ? new Set(query.data.components.flatMap((c) => (c.monitorId ? [c.monitorId] : []))) : undefined), [query.data]);
}
