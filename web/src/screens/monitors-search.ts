// The Monitors screen's filters as URL query parameters (?q=&state=&type=&tag=&page=&relay=): shareable, kept on reload.
import type { MonitorQuery } from '../api/types';

export const MONITOR_FILTERS = ['q', 'state', 'type', 'tag', 'page', 'relay'] as const;
export type MonitorFilter = (typeof MONITOR_FILTERS)[number];
export type MonitorSearch = Pick<MonitorQuery, MonitorFilter>;

/** The states the list filters by: a monitor's state, or `paused` for the disabled ones. */
export const STATE_FILTERS = ['up', 'degraded', 'down', 'unknown', 'paused'] as const satisfies readonly NonNullable<
  MonitorQuery['state']
>[];

const MAX_CHARS = 200;

/** The route's validateSearch: keeps the known filters that are non-empty strings (a state only when it is one). */
export function monitorSearch(search: Record<string, unknown>): MonitorSearch {
  const text = (name: MonitorFilter) => {
    const value = search[name];
    return typeof value === 'string' && value.trim() !== '' ? value.slice(0, MAX_CHARS) : undefined;
  };
  const state = STATE_FILTERS.find((s) => s === search['state']);
  // The type is checked by the server (a 400 naming query.type), which knows the monitor types of this build.
  const type = text('type') as MonitorQuery['type'];
  const parsed: MonitorSearch = {
    q: text('q'),
    state,
    type,
    tag: text('tag'),
    page: text('page'),
    relay: text('relay'),
  };
  return Object.fromEntries(Object.entries(parsed).filter(([, v]) => v !== undefined)) as MonitorSearch;
}
