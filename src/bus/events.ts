// The events Warden publishes: every state change and result, so caches, the live hub and notifications can follow.
import type { MonitorState } from '../domain/monitor-type.js';

export interface MonitorStateChanged {
  type: 'monitor.state';
  at: number;
  monitorId: string;
  organizationId: string;
  previous: MonitorState;
  state: MonitorState;
  reason: string | null;
}

export interface MonitorChecked {
  type: 'monitor.checked';
  at: number;
  monitorId: string;
  organizationId: string;
  ok: boolean;
}

/** Something a page shows changed outside monitor results (config applied, incident, maintenance, page edit). */
export interface PageChanged {
  type: 'page.changed';
  at: number;
  pageId: string;
}

/** Monitors were created, changed or removed: the edge runner and relays reload their lists. */
export interface MonitorsChanged {
  type: 'monitors.changed';
  at: number;
  organizationId: string;
}

/** Notification channels were created, changed or removed: ingest reloads the organization's channels. */
export interface NotificationsChanged {
  type: 'notifications.changed';
  at: number;
  organizationId: string;
}

export type WardenEvent = MonitorStateChanged | MonitorChecked | PageChanged | MonitorsChanged | NotificationsChanged;
export type WardenEventType = WardenEvent['type'];
