// Atlassian Statuspage's public API v2 (…/api/v2/summary.json and its parts), rendered from the snapshot, so the
// widgets, bots and aggregators written for Statuspage read a Warden page unchanged (docs/statuspage-compat.md).
import { createHash } from 'node:crypto';
import type { z } from 'zod';
import type { PageState, Snapshot, SnapshotComponent, SnapshotIncident, SnapshotMaintenance } from '../domain/snapshot.js';
import type { Rendered } from './forms.js';
import { groupComponents } from './page-wording.js';
import type {
  STATUSPAGE_SCHEMAS,
  StatuspageComponent,
  StatuspageComponentStatus,
  StatuspageIncident,
  StatuspageIndicator,
  StatuspageMaintenance,
  StatuspagePage,
  StatuspageUpdate,
} from './statuspage-schema.js';

/** Each Statuspage endpoint Warden answers, by its page-relative path (the same under /s/{slug} and on a custom domain). */
export const STATUSPAGE_PATHS = {
  summary: '/api/v2/summary.json',
  status: '/api/v2/status.json',
  components: '/api/v2/components.json',
  incidents: '/api/v2/incidents.json',
  unresolved: '/api/v2/incidents/unresolved.json',
  maintenances: '/api/v2/scheduled-maintenances.json',
  upcoming: '/api/v2/scheduled-maintenances/upcoming.json',
  active: '/api/v2/scheduled-maintenances/active.json',
} as const;

export type StatuspageEndpoint = keyof typeof STATUSPAGE_PATHS;

/** incidents.json and scheduled-maintenances.json list at most this many, as Statuspage does. */
export const STATUSPAGE_LIST_MAX = 50;

/**
 * A component's state in Statuspage's words. Statuspage has no "unknown": a component Warden cannot see is neither
 * operational (health nobody observed) nor out (a failure nobody observed), so it reads degraded_performance.
 * `down` is refined in componentStatus: an outage the checks see is major, one only an incident declares follows it.
 */
export const COMPONENT_STATUS: Record<PageState, StatuspageComponentStatus> = {
  operational: 'operational',
  degraded: 'degraded_performance',
  down: 'major_outage',
  maintenance: 'under_maintenance',
  unknown: 'degraded_performance',
};

/** One endpoint's JSON, from the snapshot alone (pure: the same snapshot gives the same bytes). */
export function renderStatuspage(snapshot: Snapshot, endpoint: StatuspageEndpoint): Rendered {
  return { contentType: 'application/json; charset=utf-8', body: JSON.stringify(statuspageView(snapshot, endpoint)) };
}

export type StatuspageAnswer<E extends StatuspageEndpoint> = z.infer<(typeof STATUSPAGE_SCHEMAS)[E]>;

/** The object an endpoint answers, keys in Statuspage's order. */
export function statuspageView<E extends StatuspageEndpoint>(snapshot: Snapshot, endpoint: E): StatuspageAnswer<E>;
export function statuspageView(snapshot: Snapshot, endpoint: StatuspageEndpoint): StatuspageAnswer<StatuspageEndpoint> {
  const view = new View(snapshot);
  const page = view.page();
  switch (endpoint) {
    case 'summary':
      return { page, components: view.components, incidents: view.unresolved(), scheduled_maintenances: view.maintenances(), status: view.status() };
    case 'status':
      return { page, status: view.status() };
    case 'components':
      return { page, components: view.components };
    case 'incidents':
      return { page, incidents: view.incidents() };
    case 'unresolved':
      return { page, incidents: view.unresolved() };
    case 'maintenances':
      return { page, scheduled_maintenances: [...view.maintenances()].sort(bySchedule).reverse().slice(0, STATUSPAGE_LIST_MAX) };
    case 'upcoming':
      return { page, scheduled_maintenances: view.maintenances().filter((m) => m.status === 'scheduled') };
    case 'active':
      return { page, scheduled_maintenances: view.maintenances().filter((m) => m.status === 'in_progress') };
  }
}

/** Statuspage's objects for one snapshot: components first, since incidents and maintenance embed them. */
class View {
  readonly components: StatuspageComponent[];
  private readonly byId = new Map<string, StatuspageComponent>();
  private readonly zone: string;
  private readonly notifies: boolean;
  /** When each component last changed, for page.updated_at. */
  private readonly changes: number[] = [];

  constructor(private readonly snapshot: Snapshot) {
    this.zone = timeZoneOf(snapshot);
    // Subscribers get every incident update (docs/notifications.md); a page without subscriptions notifies nobody.
    this.notifies = snapshot.page.subscribe !== undefined;
    this.components = this.buildComponents();
  }

  /** updated_at: the last change the snapshot knows of (a component, an incident, a window starting), else its own time. */
  page(): StatuspagePage {
    const { page, generatedAt, activeIncidents, recentIncidents, maintenance } = this.snapshot;
    const all = [...this.changes, ...activeIncidents.map(lastChange), ...recentIncidents.map(lastChange), ...maintenance.active.map((w) => w.startsAt)];
    const known = all.filter((at) => at <= generatedAt);
    const updatedAt = known.length > 0 ? Math.max(...known) : generatedAt;
    return { id: page.id, name: page.title, url: page.url, time_zone: this.zone, updated_at: this.time(updatedAt) };
  }

  /**
   * The page's indicator follows Warden's overall state (docs/states.md), its description is the overall label:
   * a major outage is critical; degraded is major when a component is down or a major incident is open, else minor;
   * every component unknown is minor.
   */
  status(): { indicator: StatuspageIndicator; description: string } {
    const { overall, components, activeIncidents } = this.snapshot;
    let indicator: StatuspageIndicator;
    if (overall.state === 'down') indicator = 'critical';
    else if (overall.state === 'maintenance') indicator = 'maintenance';
    else if (overall.state === 'unknown') indicator = 'minor';
    else if (overall.state === 'operational') indicator = 'none';
    else indicator = components.some((c) => c.state === 'down') || activeIncidents.some((i) => i.impact === 'major' || i.impact === 'critical') ? 'major' : 'minor';
    return { indicator, description: overall.label };
  }

  /** Unresolved and resolved incidents (the snapshot keeps resolved ones 14 days), newest first, at most 50. */
  incidents(): StatuspageIncident[] {
    const all = [...this.snapshot.activeIncidents, ...this.snapshot.recentIncidents];
    return all
      .sort((a, b) => b.startedAt - a.startedAt)
      .slice(0, STATUSPAGE_LIST_MAX)
      .map((incident) => this.incident(incident));
  }

  unresolved(): StatuspageIncident[] {
    return [...this.snapshot.activeIncidents].sort((a, b) => b.startedAt - a.startedAt).map((incident) => this.incident(incident));
  }

  /** In progress first, then upcoming, each soonest first (summary.json's order). */
  maintenances(): StatuspageMaintenance[] {
    const { active, upcoming } = this.snapshot.maintenance;
    return [...active, ...upcoming].map((window) => this.maintenance(window));
  }

  private buildComponents(): StatuspageComponent[] {
    const out: StatuspageComponent[] = [];
    let position = 0;
    for (const { group, components } of groupComponents(this.snapshot.components)) {
      if (group === null) {
        for (const component of components) out.push(this.component(component, ++position, null));
        continue;
      }
      const id = groupId(this.snapshot.page.id, group);
      const children = components.map((component, index) => this.component(component, index + 1, id));
      out.push(this.group(id, group, ++position, children), ...children);
    }
    return out;
  }

  private component(component: SnapshotComponent, position: number, groupIdOf: string | null): StatuspageComponent {
    const firstDay = component.days.find((day) => day.checks > 0)?.date ?? null;
    const createdAt = Date.parse(`${firstDay ?? component.days[0]?.date ?? isoDay(this.snapshot.generatedAt)}T00:00:00Z`);
    const updatedAt = Math.max(createdAt, ...this.changesOf(component));
    this.changes.push(updatedAt);
    const json: StatuspageComponent = {
      id: component.id,
      name: component.name,
      status: this.componentStatus(component),
      created_at: this.time(createdAt),
      updated_at: this.time(updatedAt),
      position,
      description: component.description,
      showcase: true,
      start_date: firstDay,
      group_id: groupIdOf,
      page_id: this.snapshot.page.id,
      group: false,
      only_show_if_degraded: false,
    };
    this.byId.set(component.id, json);
    return json;
  }

  /** Statuspage shows a group as a component of its own listing its members' ids; its status is their worst. */
  private group(id: string, name: string, position: number, children: StatuspageComponent[]): StatuspageComponent {
    const statuses = children.map((child) => child.status);
    const worst = statuses.reduce<StatuspageComponentStatus>((a, b) => (STATUS_RANK[b] > STATUS_RANK[a] ? b : a), 'operational');
    const times = children.map((child) => Date.parse(child.created_at));
    const updated = children.map((child) => Date.parse(child.updated_at));
    return {
      id,
      name,
      // Some members out and some not is a partial outage of the group.
      status: worst === 'major_outage' && statuses.some((s) => s !== 'major_outage') ? 'partial_outage' : worst,
      created_at: this.time(Math.min(...times)),
      updated_at: this.time(Math.max(...updated)),
      position,
      description: null,
      showcase: false,
      start_date: null,
      group_id: null,
      page_id: this.snapshot.page.id,
      group: true,
      only_show_if_degraded: false,
      components: children.map((child) => child.id),
    };
  }

  /** Down because the checks fail is a major outage; down only because an open incident says so follows its impact. */
  private componentStatus(component: SnapshotComponent): StatuspageComponentStatus {
    if (component.state !== 'down' || component.monitorState === 'down') return COMPONENT_STATUS[component.state];
    const impacts = this.snapshot.activeIncidents.filter((i) => i.components.some((c) => c.id === component.id)).map((i) => i.impact);
    return impacts.includes('critical') ? 'major_outage' : 'partial_outage';
  }

  /** When the component last changed, as far as the snapshot tells: its monitor's state, incidents and maintenance naming it. */
  private changesOf(component: SnapshotComponent): number[] {
    const names = (list: { components: { id: string }[] }) => list.components.some((c) => c.id === component.id);
    const { activeIncidents, recentIncidents, maintenance } = this.snapshot;
    return [
      ...(component.since === null ? [] : [component.since]),
      ...activeIncidents.filter(names).map(lastChange),
      ...recentIncidents.filter(names).map(lastChange),
      ...maintenance.active.filter(names).map((w) => w.startsAt),
    ];
  }

  private incident(incident: SnapshotIncident): StatuspageIncident {
    const updatedAt = lastChange(incident);
    const monitoring = incident.updates.find((u) => u.status === 'monitoring');
    return {
      id: incident.id,
      name: incident.title,
      status: incident.status,
      created_at: this.time(incident.startedAt),
      updated_at: this.time(updatedAt),
      monitoring_at: monitoring ? this.time(monitoring.at) : null,
      resolved_at: incident.resolvedAt === null ? null : this.time(incident.resolvedAt),
      impact: incident.impact,
      shortlink: this.snapshot.page.url,
      started_at: this.time(incident.startedAt),
      page_id: this.snapshot.page.id,
      // Statuspage lists updates newest first; Warden keeps them oldest first.
      incident_updates: [...incident.updates].reverse().map((u) => this.update(incident.id, u.id, u.status, u.message, u.at)),
      components: this.componentsNamed(incident.components),
    };
  }

  /** A window as Statuspage's scheduled maintenance; its description is its one update (Warden's windows have no timeline). */
  private maintenance(window: SnapshotMaintenance): StatuspageMaintenance {
    const at = this.time(window.startsAt);
    return {
      id: window.id,
      name: window.title,
      status: window.status,
      created_at: at,
      updated_at: at,
      monitoring_at: null,
      resolved_at: null,
      impact: 'maintenance' as const,
      shortlink: this.snapshot.page.url,
      started_at: at,
      page_id: this.snapshot.page.id,
      incident_updates: [this.update(window.id, `${window.id}-${window.status}`, window.status, window.description ?? window.title, window.startsAt)],
      components: this.componentsNamed(window.components),
      scheduled_for: at,
      scheduled_until: this.time(window.endsAt),
    };
  }

  private update(incidentId: string, id: string, status: string, body: string, at: number): StatuspageUpdate {
    const time = this.time(at);
    return {
      id,
      status,
      body,
      incident_id: incidentId,
      created_at: time,
      updated_at: time,
      display_at: time,
      // Warden does not record which component changed from what to what with each update.
      affected_components: null,
      deliver_notifications: this.notifies,
      custom_tweet: null,
      tweet_id: null,
    };
  }

  /** The named components as Statuspage embeds them (whole objects); one since removed from the page is left out. */
  private componentsNamed(refs: { id: string }[]): StatuspageComponent[] {
    return refs.map((ref) => this.byId.get(ref.id)).filter((c): c is StatuspageComponent => c !== undefined);
  }

  private time(ms: number): string {
    return isoInZone(ms, this.zone);
  }
}

const STATUS_RANK: Record<StatuspageComponentStatus, number> = {
  operational: 0,
  under_maintenance: 1,
  degraded_performance: 2,
  partial_outage: 3,
  major_outage: 4,
};

function lastChange(incident: SnapshotIncident): number {
  return Math.max(incident.startedAt, incident.resolvedAt ?? 0, ...incident.updates.map((u) => u.at));
}

function bySchedule(a: StatuspageMaintenance, b: StatuspageMaintenance): number {
  return Date.parse(a.scheduled_for) - Date.parse(b.scheduled_for);
}

/** A group's id: stable while its name stays (Warden groups are names), 12 hex digits like Statuspage's 12-character ids. */
function groupId(pageId: string, name: string): string {
  return `grp_${createHash('sha256').update(`${pageId}\u0000${name}`).digest('hex').slice(0, 12)}`;
}

/** The page's IANA time zone; UTC for a name this runtime's Intl does not know (validation keeps those out). */
function timeZoneOf(snapshot: Snapshot): string {
  const zone = snapshot.page.timeZone;
  return zone !== '' && offsetFormat(zone) !== null ? zone : 'UTC';
}

function isoDay(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10);
}

/**
 * ISO 8601 with milliseconds and the zone's offset at that instant, as Statuspage writes its times
 * ("2026-11-20T15:05:00.000+01:00"; "…Z" in UTC).
 */
export function isoInZone(ms: number, zone: string): string {
  const format = zone === 'UTC' || zone === 'Etc/UTC' ? null : offsetFormat(zone);
  if (!format) return new Date(ms).toISOString();
  const name = format.formatToParts(new Date(ms)).find((part) => part.type === 'timeZoneName')?.value ?? 'GMT';
  // "GMT" alone is a zero offset; else "GMT+05:30" or "GMT-08:00".
  const match = /^GMT([+-])(\d{2}):(\d{2})$/.exec(name);
  const offset = match ? (match[1] === '-' ? -1 : 1) * (Number(match[2]) * 60 + Number(match[3])) : 0;
  const local = new Date(ms + offset * 60_000).toISOString().slice(0, 23);
  return `${local}${match ? `${match[1]}${match[2]}:${match[3]}` : '+00:00'}`;
}

/** One formatter per zone (they are costly to make); null for a name Intl does not know. */
const formats = new Map<string, Intl.DateTimeFormat | null>();

function offsetFormat(zone: string): Intl.DateTimeFormat | null {
  let format = formats.get(zone);
  if (format === undefined) {
    try {
      format = new Intl.DateTimeFormat('en-US', { timeZone: zone, timeZoneName: 'longOffset' });
    } catch {
      format = null;
    }
    formats.set(zone, format);
  }
  return format;
}
