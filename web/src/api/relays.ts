// Relays as TanStack Query queries (the list, and each relay's monitors: their count and shortest interval) and what
// a write on one refreshes. Keys: ['org', <organization>, 'relays', …] (query-keys.ts).
import { type QueryClient, queryOptions } from '@tanstack/react-query';
import { api, call, inOrganization } from './client';
import { organizationScope } from './query-keys';
import type { components } from './schema';

export type RelayView = components['schemas']['Relay'];

/** Monitors read per relay for its count and shortest interval (the count is the server's total, whatever the page). */
const MONITORS_READ = 200;

export const relayKeys = {
  all: (org: string) => [...organizationScope(org), 'relays'] as const,
  list: (org: string) => [...relayKeys.all(org), 'list'] as const,
  monitors: (org: string, relayKey: string) => [...relayKeys.all(org), 'monitors', relayKey] as const,
};

/** GET /api/v1/relays (the Relays screen, the relay filter of Monitors, the relay picker of the monitor form). */
export const relaysQuery = (org: string) =>
  queryOptions({ queryKey: relayKeys.list(org), queryFn: () => call(api.GET('/api/v1/relays', inOrganization(org))) });

export interface RelayMonitors {
  total: number;
  shortestIntervalSec: number | undefined;
}

/** How many monitors a relay runs, and the shortest interval among them (what its online status is judged by). */
export const relayMonitorsQuery = (org: string, relayKey: string) =>
  queryOptions({
    queryKey: relayKeys.monitors(org, relayKey),
    queryFn: async (): Promise<RelayMonitors> => {
      const page = await call(
        api.GET('/api/v1/monitors', {
          params: { query: { relay: relayKey, limit: MONITORS_READ } },
          ...inOrganization(org),
        }),
      );
      const intervals = page.monitors.flatMap((m) => (m.intervalSec === null ? [] : [m.intervalSec]));
      return {
        total: page.total ?? page.monitors.length,
        shortestIntervalSec: intervals.length > 0 ? Math.min(...intervals) : undefined,
      };
    },
    staleTime: 60_000,
  });

/** After creating a relay, issuing its token or deleting it. */
export function relaysChanged(queryClient: QueryClient, org: string): Promise<void> {
  return queryClient.invalidateQueries({ queryKey: relayKeys.all(org) });
}
