// Uptime reports (GET /api/v1/reports/uptime) as a TanStack Query query, and the same report fetched as a CSV or
// JSON file to save. Keys: ['org', <organization>, 'reports', …] (query-keys.ts).
import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { ApiError, api, call, inOrganization } from './client';
import { organizationScope } from './query-keys';
import type { components, paths } from './schema';

export type UptimeReport = components['schemas']['UptimeReport'];
export type ReportSubject = UptimeReport['subjects'][number];
export type ReportFigures = ReportSubject['summary'];
export type UptimeReportParams = NonNullable<paths['/api/v1/reports/uptime']['get']['parameters']['query']>;

export const reportKeys = {
  all: (org: string) => [...organizationScope(org), 'reports'] as const,
  uptime: (org: string, params: UptimeReportParams) => [...reportKeys.all(org), 'uptime', params] as const,
};

/** The report for a range and a set of subjects; the previous one stays shown while another is asked for. */
export const uptimeReportQuery = (org: string, params: UptimeReportParams) =>
  queryOptions({
    queryKey: reportKeys.uptime(org, params),
    queryFn: () =>
      call(
        api.GET('/api/v1/reports/uptime', { params: { query: { ...params, format: 'json' } }, ...inOrganization(org) }),
      ),
    placeholderData: keepPreviousData,
    staleTime: 60_000,
    // A refused range (400) is the user's to fix, not worth asking again.
    retry: (failures, error) => !(error instanceof ApiError && error.status < 500) && failures < 2,
  });

/**
 * The report as a file, named as the server names it (`uptime-<from>-<to>.csv`). Fetched rather than linked: the
 * request must name the organization (a header), which a link cannot send.
 */
export async function uptimeReportFile(
  org: string,
  params: UptimeReportParams,
  format: 'csv' | 'json',
): Promise<{ blob: Blob; filename: string }> {
  let filename = `uptime-${params.from ?? ''}-${params.to ?? ''}.${format}`;
  const blob = await call(
    api
      .GET('/api/v1/reports/uptime', {
        params: { query: { ...params, format } },
        parseAs: 'blob',
        ...inOrganization(org),
      })
      .then((result) => {
        const named = /filename="([^"]+)"/.exec(result.response.headers.get('content-disposition') ?? '')?.[1];
        if (named) filename = named;
        return result;
      }),
  );
  return { blob: blob as unknown as Blob, filename };
}
