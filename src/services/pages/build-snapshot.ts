// Builds the snapshot of one page from the store: reads its components, monitors, buckets, incidents and maintenance,
// and hands them to assembleSnapshot (assemble-snapshot.ts), reusing the last snapshot's charts within CHART_REFRESH_MS.

import { DAY_MS, HOUR_MS } from '../../domain/check.js';
import { type DependencyGraph, dependencyGraph, heldBehind } from '../../domain/dependencies.js';
import { type Monitor, vantageOf } from '../../domain/monitor.js';
import type { Page } from '../../domain/page.js';
import { GAME_CHANGE_LIMITS } from '../../domain/player-alerts.js';
import type { LocationChart, Snapshot } from '../../domain/snapshot.js';
import { EDGE_LOCATION } from '../../domain/vantage.js';
import type { Store } from '../../store/index.js';
import { assembleSnapshot } from './assemble-snapshot.js';
import { chartReadWindow } from './snapshot-charts.js';
import { locationCharts } from './snapshot-location-charts.js';
import { STRIP_DAYS } from './uptime-strip.js';

export { assembleSnapshot, type SnapshotParts } from './assemble-snapshot.js';
export { STRIP_DAYS };

/**
 * The charts are hourly and daily series: a rebuild within this long of the last time they were read (the same hour,
 * the same components and monitors) reuses that snapshot's series instead of reading a week of whole buckets again.
 * Rebuilds follow every check result; without this the chart reads were two thirds of a 50-component rebuild.
 */
export const CHART_REFRESH_MS = 60_000;

/** When each snapshot's charts were read, and for which components and monitors. */
const chartsRead = new WeakMap<Snapshot, { at: number; layout: string }>();

/**
 * `smtp`: the system SMTP server, without which nobody subscribes by email. `previous`: the page's last snapshot, whose
 * charts a rebuild soon after may reuse (CHART_REFRESH_MS).
 */
export async function buildSnapshot(
  { store, smtp }: { store: Store; smtp?: unknown },
  { page, now, pageUrl, previous }: { page: Page; now: number; pageUrl: string; previous?: Snapshot },
): Promise<Snapshot> {
  const components = await store.components.list(page.id);
  const monitorIds = [...new Set(components.map((c) => c.monitorId).filter((id): id is string => id !== null))];
  const today = Math.floor(now / DAY_MS) * DAY_MS;
  const firstDay = today - (STRIP_DAYS - 1) * DAY_MS;
  const thisHour = Math.floor(now / HOUR_MS) * HOUR_MS;
  const layout = components.map((c) => `${c.id}:${c.monitorId ?? ''}`).join(',');
  const read = previous ? chartsRead.get(previous) : undefined;
  const reuse =
    previous &&
    read &&
    read.layout === layout &&
    now >= read.at &&
    now - read.at < CHART_REFRESH_MS &&
    Math.floor(read.at / HOUR_MS) * HOUR_MS === thisHour
      ? previous
      : undefined;
  const { hourlyFrom, dailyFrom } = chartReadWindow(now);
  const none = Promise.resolve([]);
  const announces = page.announceGameChanges && monitorIds.length > 0;
  const [monitorList, incidents, windows, daily, hourlyCounts, chartHourly, chartDaily, assets, changes, graph] =
    await Promise.all([
      monitorIds.length === 0 ? [] : store.monitors.findByIds(monitorIds),
      // 90 days, not 14: each day of the strip names the incidents it saw.
      store.incidents.list(page.id, { since: firstDay, limit: 200 }),
      store.maintenance.list(page.id, now),
      store.checks.bucketCounts('day', monitorIds, firstDay, today + DAY_MS),
      // Reusing the charts, the last 24 hours' uptime still needs the hourly counts (else the chart read gives them).
      reuse && monitorIds.length > 0
        ? store.checks.bucketCounts('hour', monitorIds, thisHour - 23 * HOUR_MS, thisHour + HOUR_MS)
        : none,
      reuse || monitorIds.length === 0
        ? none
        : store.checks.buckets('hour', monitorIds, hourlyFrom, thisHour + HOUR_MS),
      reuse || monitorIds.length === 0 ? none : store.checks.buckets('day', monitorIds, dailyFrom, today + DAY_MS),
      store.pageAssets.digests(page.id),
      // A page that announces game changes reads a day of them: a few indexed rows.
      announces
        ? store.gameChanges.recent(monitorIds, now - GAME_CHANGE_LIMITS.shownForMs, GAME_CHANGE_LIMITS.shownPerPage)
        : none,
      // A page that shows unreachable components reads its organization's dependencies (when any monitor names a parent).
      page.showUnreachable && monitorIds.length > 0 ? dependenciesOf(store, page.organizationId) : null,
    ]);
  const monitors = new Map(monitorList.map((monitor) => [monitor.id, monitor]));
  const locations = reuse ? undefined : await locationChartsOf(store, monitorList, dailyFrom, thisHour + HOUR_MS, now);
  const hourly = reuse ? hourlyCounts : chartHourly.filter((b) => b.start >= thisHour - 23 * HOUR_MS);
  const snapshot = assembleSnapshot({
    page,
    pageUrl,
    now,
    components,
    monitors,
    incidents,
    windows,
    daily,
    hourly,
    assets,
    charts: reuse
      ? { reuse: new Map(reuse.components.map((c) => [c.id, c.charts])) }
      : { hourly: chartHourly, daily: chartDaily, ...(locations ? { locations } : {}) },
    emailSubscriptions: smtp !== undefined,
    ...(page.announceGameChanges ? { gameChanges: changes } : {}),
    ...(graph ? { unreachable: heldBehind(graph, monitorList) } : {}),
  });
  chartsRead.set(snapshot, reuse ? (read as { at: number; layout: string }) : { at: now, layout });
  return snapshot;
}

async function dependenciesOf(store: Store, organizationId: string): Promise<DependencyGraph | null> {
  if (!(await store.dependencies.any(organizationId))) return null;
  return dependencyGraph(await store.dependencies.nodes(organizationId));
}

/**
 * The per-place charts of the page's monitors checked from several places (none for the others: no read at all), each
 * place named as a reader may see it: a relay by its name, Warden itself (the edge) by the page's word for it.
 */
async function locationChartsOf(
  store: Store,
  monitors: readonly Monitor[],
  from: number,
  to: number,
  now: number,
): Promise<Map<string, LocationChart[]> | undefined> {
  const located = monitors.flatMap((m) => {
    const vantage = vantageOf(m);
    return vantage ? [{ monitor: m, places: vantage.locations }] : [];
  });
  if (located.length === 0) return undefined;
  const relays = new Map(
    (await store.relays.list((located[0] as { monitor: Monitor }).monitor.organizationId)).map((r) => [r.id, r.name]),
  );
  const charts = new Map<string, LocationChart[]>();
  for (const { monitor, places } of located) {
    const buckets = await store.checks.locationBuckets(monitor.id, from, to);
    const named = places.map((id) => ({ id, name: id === EDGE_LOCATION ? null : (relays.get(id) ?? null) }));
    // A relay deleted since (no name) is left out rather than shown as Warden itself.
    const shown = named.filter((p) => p.id === EDGE_LOCATION || p.name !== null);
    const chart = locationCharts(buckets, shown, now);
    if (chart) charts.set(monitor.id, chart);
  }
  return charts;
}
