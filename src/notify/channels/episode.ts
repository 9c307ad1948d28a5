// The key that ties an event to the others of the same story, for receivers that group messages (a chat thread, an
// alert to resolve): a monitor's down, its reminders and its recovery share one; an incident's or a maintenance's
// events share theirs. Pure: derived from what the event carries, so a retry or a replay gets the same key.
import type { NotificationEvent } from './channel.js';

/**
 * `monitor-<id>-<since>` for a monitor's events, `<since>` the epoch ms the down (or degraded) period began: the down
 * event's own time, a reminder's `downSince`, a recovery's time less its downtime. `incident-<id>`,
 * `maintenance-<id>`, `relay-<key>` and `tls-<host>` for those; the event's own id for anything else (a test).
 */
export function episodeKey(event: NotificationEvent): string {
  const { monitor, incident, maintenance, relay, tls } = event;
  if (monitor) return `monitor-${monitor.id}-${episodeStart(event)}`;
  if (incident) return `incident-${incident.id}`;
  if (maintenance) return `maintenance-${maintenance.id}`;
  if (relay) return `relay-${relay.key}`;
  if (tls) return `tls-${tls.host}`;
  return event.id;
}

/** When the monitor's current (or, for a recovery, just ended) period began. */
function episodeStart(event: NotificationEvent): number {
  if (event.downSince !== undefined) return event.downSince;
  const downtime = event.monitor?.downtimeMs;
  if (event.kind === 'monitor.recovered' && downtime != null) return event.at - downtime;
  return event.at;
}
