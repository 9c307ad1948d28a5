// What changed between two snapshots of a page, as live-stream messages: pure, so the rules are tested with plain values.
import type { Snapshot, SnapshotComponent, SnapshotIncident, SnapshotMaintenance } from '../../domain/snapshot.js';
import type { IncidentMessage, LiveComponent, LiveMessage, MaintenanceMessage, SnapshotMessage } from './messages.js';

export function snapshotMessage(snapshot: Snapshot): SnapshotMessage {
  return { type: 'snapshot', at: snapshot.generatedAt, snapshot };
}

/**
 * The messages that take a client holding `previous` to `next`, in this order: components, incidents, maintenance,
 * totals, overall (causes before their effect). A change of the page's shape — its title or description, which
 * components it has, their order, names, descriptions or groups — is one `snapshot` message instead: patching a
 * different list would be more error-prone than replacing it. Nothing changed (a periodic rebuild) → no messages.
 */
export function diffSnapshots(previous: Snapshot, next: Snapshot): LiveMessage[] {
  if (shapeChanged(previous, next)) return [snapshotMessage(next)];
  const at = next.generatedAt;
  const messages: LiveMessage[] = [];
  next.components.forEach((component, i) => {
    const before = previous.components[i] as SnapshotComponent;
    if (componentChanged(before, component))
      messages.push({ type: 'monitor.update', at, component: liveComponent(component), previousState: before.state });
  });
  messages.push(...incidentMessages(previous, next), ...maintenanceMessages(previous, next));
  if (!same(previous.totals, next.totals)) messages.push({ type: 'totals', at, ...next.totals });
  if (!same(previous.overall, next.overall))
    messages.push({ type: 'overall', at, ...next.overall, previous: previous.overall });
  return messages;
}

/** A component without its 90-day strip and charts. */
function liveComponent(component: SnapshotComponent): LiveComponent {
  const { days: _days, charts: _charts, ...rest } = component;
  return rest;
}

function shapeChanged(previous: Snapshot, next: Snapshot): boolean {
  if (!same(previous.page, next.page) || previous.components.length !== next.components.length) return true;
  return next.components.some((c, i) => {
    const p = previous.components[i] as SnapshotComponent;
    return p.id !== c.id || p.name !== c.name || p.description !== c.description || p.group !== c.group;
  });
}

function componentChanged(before: SnapshotComponent, after: SnapshotComponent): boolean {
  return (
    before.state !== after.state ||
    before.monitorState !== after.monitorState ||
    before.since !== after.since ||
    !same(before.live, after.live) ||
    !same(before.uptime, after.uptime) ||
    !same(before.join, after.join) ||
    !same(before.badges, after.badges) ||
    !same(before.unreachable, after.unreachable)
  );
}

function incidentMessages(previous: Snapshot, next: Snapshot): IncidentMessage[] {
  const at = next.generatedAt;
  const wasActive = byId(previous.activeIncidents);
  const wasRecent = byId(previous.recentIncidents);
  const seen = new Set<string>();
  const messages: IncidentMessage[] = [];
  const emit = (change: IncidentMessage['change'], incident: SnapshotIncident) =>
    messages.push({ type: 'incident', at, change, incident });
  for (const incident of next.activeIncidents) {
    seen.add(incident.id);
    const before = wasActive.get(incident.id) ?? wasRecent.get(incident.id);
    if (!before) emit('opened', incident);
    else if (!same(before, incident)) emit('updated', incident);
  }
  for (const incident of next.recentIncidents) {
    if (seen.has(incident.id)) continue;
    seen.add(incident.id);
    const active = wasActive.get(incident.id);
    const recent = wasRecent.get(incident.id);
    if (active || !recent) emit('resolved', incident);
    else if (!same(recent, incident)) emit('updated', incident);
  }
  for (const incident of [...previous.activeIncidents, ...previous.recentIncidents])
    if (!seen.has(incident.id)) {
      seen.add(incident.id);
      emit('removed', incident);
    }
  return messages;
}

function maintenanceMessages(previous: Snapshot, next: Snapshot): MaintenanceMessage[] {
  const at = next.generatedAt;
  const wasActive = byId(previous.maintenance.active);
  const wasUpcoming = byId(previous.maintenance.upcoming);
  const seen = new Set<string>();
  const messages: MaintenanceMessage[] = [];
  const emit = (change: MaintenanceMessage['change'], maintenance: SnapshotMaintenance) =>
    messages.push({ type: 'maintenance', at, change, maintenance });
  for (const window of next.maintenance.active) {
    seen.add(window.id);
    const before = wasActive.get(window.id);
    if (!before) emit('started', window);
    else if (!same(before, window)) emit('updated', window);
  }
  for (const window of next.maintenance.upcoming) {
    if (seen.has(window.id)) continue;
    seen.add(window.id);
    const before = wasUpcoming.get(window.id) ?? wasActive.get(window.id);
    if (!before) emit('scheduled', window);
    else if (!same(before, window)) emit('updated', window);
  }
  for (const window of [...previous.maintenance.active, ...previous.maintenance.upcoming])
    if (!seen.has(window.id)) {
      seen.add(window.id);
      emit(wasActive.has(window.id) && at >= window.endsAt ? 'ended' : 'removed', window);
    }
  return messages;
}

function byId<T extends { id: string }>(list: T[]): Map<string, T> {
  return new Map(list.map((item) => [item.id, item]));
}

/** Snapshot parts are plain JSON built by one function, so equal values serialize to equal text. */
function same(a: unknown, b: unknown): boolean {
  return a === b || JSON.stringify(a) === JSON.stringify(b);
}
