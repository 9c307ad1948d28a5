// The pure half of a page's snapshot: from what the store gave (components, monitors, buckets, incidents, maintenance)
// to the snapshot every form renders: component states, uptime strips, live data, charts, incidents, branding.

import { createHash } from 'node:crypto';
import { accentForDark, CUSTOM_CSS_PATH, type PageAssetName, pageAssetPath } from '../../domain/branding.js';
import { type BucketCount as Bucket, DAY_MS, type Bucket as FullBucket } from '../../domain/check.js';
import { restartExpectedAt } from '../../domain/expected-restart.js';
import type { Incident, Maintenance } from '../../domain/incident.js';
import type { Monitor } from '../../domain/monitor.js';
import type { Component, Page } from '../../domain/page.js';
import type { GameChange } from '../../domain/player-alerts.js';
import { playerNamesOf } from '../../domain/player-names.js';
import { currentOrNextOccurrence } from '../../domain/recurrence.js';
import { describeRecurrence } from '../../domain/recurrence-text.js';
import type {
  ComponentCharts,
  LiveData,
  LocationChart,
  Snapshot,
  SnapshotBranding,
  SnapshotComponent,
  SnapshotIncident,
  SnapshotMaintenance,
} from '../../domain/snapshot.js';
import { componentState, overallState } from '../../domain/states.js';
import { componentCharts, NO_CHARTS } from './snapshot-charts.js';
import { componentJoin } from './snapshot-join.js';
import { dayIncidents, strip, stripDates, uptimeWindows } from './uptime-strip.js';

/** Resolved incidents stay listed this long. */
export const RECENT_INCIDENT_DAYS = 14;
/** Upcoming maintenance shown this far ahead. */
export const UPCOMING_MAINTENANCE_DAYS = 60;

export interface SnapshotParts {
  page: Page;
  pageUrl: string;
  now: number;
  components: Component[];
  monitors: Map<string, Monitor>;
  incidents: Incident[];
  windows: Maintenance[];
  /** Daily buckets of the last 90 days and hourly buckets of the last 24 hours, for every monitor of the page. */
  daily: Bucket[];
  hourly: Bucket[];
  /** Whole buckets for the charts: hourly ones of the last 7 days, daily ones of the last 30 (snapshot-charts.ts). */
  charts?:
    | {
        hourly: FullBucket[];
        daily: FullBucket[];
        /** Per monitor checked from several places: its places' charts (snapshot-location-charts.ts). */
        locations?: Map<string, LocationChart[]>;
      }
    | { reuse: Map<string, ComponentCharts> };
  /** Whether visitors may subscribe by email (a system SMTP server is set). */
  emailSubscriptions?: boolean;
  /** The images uploaded with the page (name and digest). */
  assets?: { name: PageAssetName; digest: string }[];
  /** The recent game changes of its monitors, newest first: given only for a page that announces them. */
  gameChanges?: GameChange[];
  /** Monitor id → the name of the down monitor it is held behind: given only for a page that shows it (`showUnreachable`). */
  unreachable?: ReadonlyMap<string, string>;
}

/** The pure half of buildSnapshot: no I/O, so the rules are tested with plain values. */
export function assembleSnapshot(parts: SnapshotParts): Snapshot {
  const { page, now } = parts;
  const names = new Map(parts.components.map((c) => [c.id, c.name]));
  const refs = (ids: string[]) =>
    ids.filter((id) => names.has(id)).map((id) => ({ id, name: names.get(id) as string }));

  const active = parts.incidents.filter((i) => i.resolvedAt === null && i.status !== 'resolved');
  // The store gives 90 days of incidents (for the strip's days); the list of resolved ones keeps to 14.
  const recentSince = now - RECENT_INCIDENT_DAYS * DAY_MS;
  const recent = parts.incidents
    .filter((i) => !active.includes(i) && (i.resolvedAt === null || i.resolvedAt >= recentSince))
    .sort((a, b) => (b.resolvedAt ?? 0) - (a.resolvedAt ?? 0));
  // A window counts by its occurrence in progress or its next one (a one-off window's is itself).
  const occurring = parts.windows.flatMap((w) => {
    const occurrence = currentOrNextOccurrence(w, now);
    const repeats = w.recurrence === null ? null : describeRecurrence(w.recurrence, w.startsAt);
    return occurrence ? [{ ...w, ...occurrence, repeats }] : [];
  });
  const inProgress = occurring.filter((w) => w.startsAt <= now && w.endsAt > now);
  const upcoming = occurring.filter((w) => w.startsAt > now && w.startsAt <= now + UPCOMING_MAINTENANCE_DAYS * DAY_MS);

  const dailyByMonitor = groupBy(parts.daily);
  const hourlyByMonitor = groupBy(parts.hourly);
  const reused = parts.charts && 'reuse' in parts.charts ? parts.charts.reuse : undefined;
  const chartHourly = groupBy(parts.charts && 'hourly' in parts.charts ? parts.charts.hourly : []);
  const chartDaily = groupBy(parts.charts && 'daily' in parts.charts ? parts.charts.daily : []);
  const chartLocations = parts.charts && 'hourly' in parts.charts ? parts.charts.locations : undefined;
  const today = Math.floor(now / DAY_MS) * DAY_MS;
  const dates = stripDates(today);

  const components: SnapshotComponent[] = parts.components.map((c) => {
    const monitor = c.monitorId ? parts.monitors.get(c.monitorId) : undefined;
    const state = componentState({
      monitorState: monitor ? monitor.state : null,
      monitorEnabled: monitor ? monitor.enabled : true,
      // A window covering it, or its monitor's own expected restart.
      inMaintenance: inProgress.some((w) => covers(w, c)) || restartExpectedAt(monitor?.expectedRestart, now),
      activeImpacts: active.filter((i) => i.componentIds.includes(c.id)).map((i) => i.impact),
    });
    const days = monitor ? (dailyByMonitor.get(monitor.id) ?? []) : [];
    const hours = monitor ? (hourlyByMonitor.get(monitor.id) ?? []) : [];
    return {
      id: c.id,
      name: c.name,
      description: c.description,
      group: c.group,
      state,
      monitorState: monitor ? monitor.state : null,
      since: monitor ? monitor.stateSince : null,
      uptime: uptimeWindows(days, hours, today),
      days: strip(days, {
        now,
        dates,
        intervalSec: monitor?.intervalSec ?? null,
        incidents: dayIncidents(parts.incidents, c.id, now),
      }),
      live: monitor ? liveData(monitor, page.showPlayerNames) : null,
      charts: !monitor
        ? NO_CHARTS
        : (reused?.get(c.id) ??
          withLocations(
            componentCharts(chartHourly.get(monitor.id) ?? [], chartDaily.get(monitor.id) ?? [], now),
            chartLocations?.get(monitor.id),
          )),
      ...componentJoin(c, monitor),
      ...unreachableOf(parts.unreachable, monitor),
    };
  });

  const pageWide = (ids: string[]) => ids.length === 0;
  const overall = overallState({
    components: components.map((c) => c.state),
    pageImpacts: active.filter((i) => pageWide(i.componentIds)).map((i) => i.impact),
    pageMaintenance: inProgress.some((w) => pageWide(w.componentIds) && pageWide(w.monitorIds)),
  });
  // A window names the components it covers: those it names and those showing a monitor it covers.
  const covered = (w: Occurring) => refs(parts.components.filter((c) => covers(w, c)).map((c) => c.id));

  return {
    page: {
      id: page.id,
      slug: page.slug,
      title: page.title,
      description: page.description,
      url: parts.pageUrl,
      // An unproven domain serves nothing, so the page does not name it either.
      customDomain: page.customDomainVerifiedAt === null ? null : page.customDomain,
      language: page.language,
      timeZone: page.timeZone,
      branding: brandingView(page, parts.assets ?? []),
      // A protected page takes no subscriptions (and its snapshot is only seen past the password anyway).
      ...(page.subscriptions && page.passwordHash === null
        ? { subscribe: { email: parts.emailSubscriptions === true, webhook: true, discord: true, slack: true } }
        : {}),
      // A protected page publishes no history (it answers 404 there).
      ...(page.publishUptimeHistory && page.passwordHash === null ? { uptimeHistory: true as const } : {}),
    },
    overall,
    components,
    activeIncidents: active.map((i) => incidentView(i, refs)),
    recentIncidents: recent.map((i) => incidentView(i, refs)),
    maintenance: {
      active: inProgress.map((w) => maintenanceView(w, 'in_progress', covered(w))),
      upcoming: upcoming.map((w) => maintenanceView(w, 'scheduled', covered(w))),
    },
    totals: totals(components, parts.components),
    ...(parts.gameChanges ? { gameChanges: gameChangeViews(parts.gameChanges, parts.components) } : {}),
    generatedAt: now,
  };
}

/** The branding a page shows: an uploaded image wins over a URL; versioned paths so caches never serve an old one. */
export function brandingView(page: Page, assets: { name: PageAssetName; digest: string }[]): SnapshotBranding {
  const b = page.branding;
  const uploaded = (name: PageAssetName) => {
    const asset = assets.find((a) => a.name === name);
    return asset ? pageAssetPath(name, asset.digest) : null;
  };
  return {
    accentColor: b.accentColor,
    accentColorDark: b.accentColor === null ? null : accentForDark(b.accentColor),
    logo: uploaded('logo') ?? b.logoUrl,
    favicon: uploaded('favicon') ?? b.faviconUrl,
    links: b.links,
    footerText: b.footerText,
    poweredBy: !b.hidePoweredBy,
    stylesheet:
      page.customCss === null
        ? null
        : `${CUSTOM_CSS_PATH}?v=${createHash('sha256').update(page.customCss).digest('hex').slice(0, 16)}`,
  };
}

function groupBy<T extends { monitorId: string }>(buckets: T[]): Map<string, T[]> {
  const out = new Map<string, T[]>();
  for (const b of buckets) {
    const list = out.get(b.monitorId);
    if (list) list.push(b);
    else out.set(b.monitorId, [b]);
  }
  return out;
}

/** What the latest check found; the names of who is online only on a page that shows them. */
function liveData(monitor: Monitor, showPlayerNames: boolean): LiveData | null {
  const r = monitor.lastResult;
  if (!r) return null;
  const data = r.data ?? {};
  const int = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) ? Math.round(v) : null);
  const text = (v: unknown) => (typeof v === 'string' && v.length > 0 ? v : null);
  return {
    checkedAt: r.checkedAt,
    latencyMs: r.latencyMs,
    players: int(data.players),
    maxPlayers: int(data.maxPlayers),
    version: text(data.version),
    motd: text(data.motd),
    message: r.ok ? r.message : (r.error ?? r.message),
    ...playerNamesField(showPlayerNames && r.ok ? playerNamesOf(r.data) : null),
  };
}

function playerNamesField(names: string[] | null): Pick<LiveData, 'playerNames'> {
  return names === null ? {} : { playerNames: names };
}

/** Players summed over the monitors of the page (a monitor shown by two components counts once). */
function totals(components: SnapshotComponent[], rows: Component[]): Snapshot['totals'] {
  const counted = new Set<string>();
  let players: number | null = null;
  let maxPlayers: number | null = null;
  components.forEach((c, i) => {
    const monitorId = rows[i]?.monitorId;
    if (!monitorId || counted.has(monitorId) || c.live === null) return;
    counted.add(monitorId);
    if (c.live.players !== null) players = (players ?? 0) + c.live.players;
    if (c.live.maxPlayers !== null) maxPlayers = (maxPlayers ?? 0) + c.live.maxPlayers;
  });
  return { players, maxPlayers };
}

function incidentView(i: Incident, refs: (ids: string[]) => { id: string; name: string }[]): SnapshotIncident {
  return {
    id: i.id,
    title: i.title,
    status: i.status,
    impact: i.impact,
    startedAt: i.startedAt,
    resolvedAt: i.resolvedAt,
    components: refs(i.componentIds),
    updates: i.updates.map((u) => ({ id: u.id, status: u.status, message: u.message, at: u.at })),
  };
}

/** Each change with the components showing its monitor; one no component shows any more is left out. */
function gameChangeViews(changes: GameChange[], components: Component[]): NonNullable<Snapshot['gameChanges']> {
  return changes.flatMap(({ id, field, from, to, at, monitorId }) => {
    const showing = components.filter((c) => c.monitorId === monitorId).map((c) => ({ id: c.id, name: c.name }));
    return showing.length === 0 ? [] : [{ id, field, from, to, at, components: showing }];
  });
}

/** A window by its occurrence in progress or its next one, and how it repeats. */
type Occurring = Maintenance & { repeats: string | null };

/** Whether a window covers a component: naming it, or covering the monitor it shows. */
function unreachableOf(held: ReadonlyMap<string, string> | undefined, monitor: Monitor | undefined) {
  const parent = monitor && held?.get(monitor.id);
  return parent === undefined ? {} : { unreachable: { parent } };
}

function covers(w: Maintenance, c: Component): boolean {
  return w.componentIds.includes(c.id) || (c.monitorId !== null && w.monitorIds.includes(c.monitorId));
}

function maintenanceView(
  w: Occurring,
  status: SnapshotMaintenance['status'],
  components: { id: string; name: string }[],
): SnapshotMaintenance {
  return {
    id: w.id,
    title: w.title,
    description: w.description,
    startsAt: w.startsAt,
    endsAt: w.endsAt,
    status,
    components,
    repeats: w.repeats,
  };
}

function withLocations(charts: ComponentCharts, locations: LocationChart[] | undefined): ComponentCharts {
  return locations ? { ...charts, locations } : charts;
}
