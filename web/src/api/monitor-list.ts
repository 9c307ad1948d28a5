// The Monitors screen's list: a filter's pages (monitors.ts), filtered here when the server does not filter (an older
// server: no nextCursor or total), and the 24 h sparklines of the loaded monitors. Hooks that combine queries; apart
// from monitors.ts so that the initial bundle (the route asks for the first page) does not carry them.
import { useInfiniteQuery, useQueries, useQuery } from '@tanstack/react-query';
import { useMemo } from 'react';
import type { MonitorSearch } from '../screens/monitors-search';
import { componentsQuery } from './components';
import { filterMonitors } from './monitor-filter';
import { monitorListQuery, sparklinesQuery } from './monitors';
import { useOrganizationKey } from './organization';
import type { MonitorStrip, MonitorView } from './types';

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
  const org = useOrganizationKey();
  const query = useInfiniteQuery(monitorListQuery(org, search));
  const pages = query.data?.pages;
  const serverFilters = pages?.[0] !== undefined && ('nextCursor' in pages[0] || 'total' in pages[0]);
  const onPage = useMonitorsOnPage(org, serverFilters ? undefined : search.page);
  const monitors = useMemo(() => {
    const all = pages?.flatMap((p) => p.monitors) ?? [];
    return serverFilters ? all : filterMonitors(all, search, onPage);
  }, [pages, serverFilters, search, onPage]);
  return {
    monitors,
    total: serverFilters ? pages?.[0]?.total : monitors.length,
    isPending:
      query.isPending || (search.page !== undefined && !serverFilters && onPage === undefined && query.isSuccess),
    error: query.error,
    refetch: () => void query.refetch(),
    loadMore: query.hasNextPage && !query.isFetchingNextPage ? () => void query.fetchNextPage() : undefined,
  };
}

/**
 * Each loaded monitor's strips by id (24 h of latency and uptime, its last checks as beats); empty while loading or when
 * the server has no sparklines.
 */
export function useSparklines(ids: readonly string[]): Map<string, MonitorStrip> {
  const org = useOrganizationKey();
  // In list order: loading the next page of monitors adds a batch and leaves the earlier ones (and their cache) alone.
  const batches = useMemo(() => {
    const out: string[][] = [];
    for (let i = 0; i < ids.length; i += SPARKLINE_BATCH) out.push(ids.slice(i, i + SPARKLINE_BATCH));
    return out;
  }, [ids]);
  return useQueries({ queries: batches.map((batch) => sparklinesQuery(org, batch)), combine: sparklinesById });
}

/** Stable, so TanStack Query keeps the combined map until a batch's data changes. */
function sparklinesById(
  results: readonly { data?: { monitors: MonitorStrip[] } | undefined }[],
): Map<string, MonitorStrip> {
  const byId = new Map<string, MonitorStrip>();
  for (const result of results) for (const strip of result.data?.monitors ?? []) byId.set(strip.id, strip);
  return byId;
}

/** The ids of the monitors a page shows, for filtering by page here (only when the server does not). */
function useMonitorsOnPage(org: string, slug: string | undefined): Set<string> | undefined {
  const query = useQuery({ ...componentsQuery(org, slug ?? ''), enabled: slug !== undefined });
  return useMemo(
    () => (query.data ? new Set(query.data.flatMap((c) => (c.monitorId ? [c.monitorId] : []))) : undefined),
    [query.data],
  );
}
