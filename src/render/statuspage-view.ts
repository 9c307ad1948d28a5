// Statuspage's objects (components, incidents, scheduled maintenances, the page) for one snapshot.
import { createHash } from 'node:crypto';
import type {
  PageState,
  Snapshot,
  SnapshotComponent,
  SnapshotIncident,
  SnapshotMaintenance,
} from '../domain/snapshot.js';
import { groupComponents } from './page-wording.js';
import type {
  StatuspageComponent,
  StatuspageComponentStatus,
  StatuspageIncident,
  StatuspageIndicator,
  StatuspageMaintenance,
  StatuspagePage,
  StatuspageUpdate,
} from './statuspage-schema.js';
import { isoDay, isoInZone, timeZoneOf } from './statuspage-time.js';

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

/** Statuspage's objects for one snapshot: components first, since incidents and maintenance embed them. */
export class View {
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
    const all = [
      ...this.changes,
      ...activeIncidents.map(lastChange),
      ...recentIncidents.map(lastChange),
      ...maintenance.active.map((w) => w.startsAt),
    ];
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
    else
      indicator =
        components.some((c) => c.state === 'down') ||
        activeIncidents.some((i) => i.impact === 'major' || i.impact === 'critical')
          ? 'major'
          : 'minor';
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
    return [...this.snapshot.activeIncidents]
      .sort((a, b) => b.startedAt - a.startedAt)
      .map((incident) => this.incident(incident));
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
    const createdAt = Date.parse(
      `${firstDay ?? component.days[0]?.date ?? isoDay(this.snapshot.generatedAt)}T00:00:00Z`,
    );
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
    const worst = statuses.reduce<StatuspageComponentStatus>(
      (a, b) => (STATUS_RANK[b] > STATUS_RANK[a] ? b : a),
      'operational',
    );
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
    const impacts = this.snapshot.activeIncidents
      .filter((i) => i.components.some((c) => c.id === component.id))
      .map((i) => i.impact);
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
      incident_updates: [...incident.updates]
        .reverse()
        .map((u) => this.update(incident.id, u.id, u.status, u.message, u.at)),
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
      incident_updates: [
        this.update(
          window.id,
          `${window.id}-${window.status}`,
          window.status,
          window.description ?? window.title,
          window.startsAt,
        ),
      ],
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

export function bySchedule(a: StatuspageMaintenance, b: StatuspageMaintenance): number {
  return Date.parse(a.scheduled_for) - Date.parse(b.scheduled_for);
}

/** A group's id: stable while its name stays (Warden groups are names), 12 hex digits like Statuspage's 12-character ids. */
function groupId(pageId: string, name: string): string {
  return `grp_${createHash('sha256').update(`${pageId}\u0000${name}`).digest('hex').slice(0, 12)}`;
}
