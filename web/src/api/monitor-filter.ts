// The Monitors screen's filters applied in the browser, for a server that answers the whole list (no `limit` support):
// the same rules as the server's (GET /api/v1/monitors?q=&state=&type=&tag=&page=&relay=).
import type { MonitorSearch } from '../screens/monitors-search';
import type { MonitorView } from './types';

/** `onPage`: the ids of the monitors the filtered page shows (undefined while unknown: nothing matches a page yet). */
export function filterMonitors(
  monitors: readonly MonitorView[],
  search: MonitorSearch,
  onPage: ReadonlySet<string> | undefined,
): MonitorView[] {
  const q = search.q?.toLowerCase();
  return monitors.filter(
    (m) =>
      (!q || m.name.toLowerCase().includes(q) || m.key.toLowerCase().includes(q)) &&
      (!search.state || (search.state === 'paused' ? !m.enabled : m.enabled && m.state === search.state)) &&
      (!search.type || m.type === search.type) &&
      (!search.tag || m.tags.includes(search.tag)) &&
      (!search.relay || m.relayKey === search.relay || m.relayId === search.relay) &&
      (!search.page || onPage?.has(m.id) === true),
  );
}
