// Monitor events that dependencies shape (docs/monitors.md, "Dependencies"): a parent's down alert that counts the
// monitors behind it, and the alert of a monitor held back while its parent was down, told once the parent is not.
// Pure: the outbox hands the facts in.
import type { Monitor } from '../../domain/monitor.js';
import { stableEventId } from '../../domain/notification.js';
import type { OutboxItem } from './item.js';
import { formatDuration, notificationKind } from './monitors.js';

/** The parent's down alert, naming how many monitors depend on it: they are taken down with it, and stay quiet. */
export function withDependents(item: OutboxItem, dependents: number): OutboxItem {
  if (dependents === 0 || item.event.kind !== 'monitor.down') return item;
  const behind = `${dependents} ${dependents === 1 ? 'monitor' : 'monitors'} behind it`;
  return { ...item, event: { ...item.event, title: `${item.event.title}, and ${behind}`, dependents } };
}

/**
 * The id of the down alert of a monitor released by its parent: apart from the one held back (same outage, another
 * event), and known to the reminders so a released outage is reminded of like any other.
 */
export function releasedAlertId(monitorId: string, downSince: number): string {
  return stableEventId(monitorId, downSince, 'monitor.down', 'released');
}

/**
 * A monitor that went down (or degraded) while its parent was down and still is now that the parent is not: its own
 * alert, with how long it has been so. `at`: when the parent stopped being down.
 */
export function releasedItem(monitor: Monitor, parentName: string, at: number): OutboxItem | null {
  const kind = notificationKind('up', monitor.state);
  if (kind !== 'monitor.down' && kind !== 'monitor.degraded') return null;
  const since = monitor.stateSince;
  const state = kind === 'monitor.down' ? 'down' : 'degraded';
  return {
    organizationId: monitor.organizationId,
    subject: { monitorId: monitor.id, pageIds: null },
    event: {
      id: kind === 'monitor.down' ? releasedAlertId(monitor.id, since) : stableEventId(monitor.id, since, kind, at),
      kind,
      at,
      severity: kind === 'monitor.down' ? 'critical' : 'warning',
      title: `${monitor.name} is ${state} (for ${formatDuration(at - since)}; held back while ${parentName} was down)`,
      reason: monitor.lastResult?.error ?? monitor.lastResult?.message ?? null,
      monitor: {
        id: monitor.id,
        key: monitor.key,
        name: monitor.name,
        type: monitor.type,
        state,
        previousState: 'unreachable',
        downtimeMs: null,
        players: null,
      },
      downSince: since,
    },
  };
}
