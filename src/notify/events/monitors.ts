// Monitor events, built from what moved: a state change (down after its retries, degraded, recovered with its
// downtime), a reminder that a monitor is still down, the summary of a flap that calmed down. Pure: the outbox and the
// reminder sweep hand the facts in, and publish what comes back.
import type { LatestResult, Monitor } from '../../domain/monitor.js';
import type { MonitorState } from '../../domain/monitor-type.js';
import { stableEventId } from '../../domain/notification.js';
import type { NotificationEvent, NotificationKind, NotificationSeverity } from '../channels/channel.js';
import type { OutboxItem } from './item.js';

/** A monitor's state moved in this commit. */
export interface StateChange {
  monitorId: string;
  organizationId: string;
  previous: MonitorState;
  /** Since when the previous state held (for the downtime of a recovery). */
  previousSince: number;
  state: MonitorState;
  at: number;
  reason: string | null;
  /** JSON of the result that moved it (players for game servers). */
  lastResult: string | null;
  /** A monitor with several locations: which of them see it down, "down from edge, fra (2 of 3)" (domain/vantage.ts). */
  locations?: string | null | undefined;
}

/** Which notification a state change is, if any: down (retries already applied), recovered from down, or degraded. */
export function notificationKind(previous: MonitorState, state: MonitorState): NotificationKind | null {
  if (state === previous) return null;
  if (state === 'down') return 'monitor.down';
  if (state === 'degraded') return 'monitor.degraded';
  if (state === 'up' && previous === 'down') return 'monitor.recovered';
  return null;
}

/** The item a state change calls for (`kind` from notificationKind), about `monitor` as it is after the commit. */
export function stateChangeItem(change: StateChange, monitor: Monitor, kind: NotificationKind): OutboxItem {
  const downtimeMs = kind === 'monitor.recovered' ? Math.max(0, change.at - change.previousSince) : null;
  return {
    organizationId: change.organizationId,
    subject: { monitorId: monitor.id, pageIds: null },
    event: {
      id: stableEventId(monitor.id, change.at, kind),
      kind,
      at: change.at,
      severity: SEVERITY[kind] ?? 'info',
      title: titleOf(kind, monitor.name, downtimeMs),
      reason: kind === 'monitor.recovered' ? null : reasonOf(change),
      monitor: {
        id: monitor.id,
        key: monitor.key,
        name: monitor.name,
        type: monitor.type,
        state: change.state,
        previousState: change.previous,
        downtimeMs,
        players: playersOf(change.lastResult),
      },
    },
  };
}

/** The k-th reminder (due at `due.at`) to one channel that a monitor is still down. */
export function reminderItem(
  monitor: Monitor,
  channelId: string,
  due: { k: number; at: number },
  id: string,
): OutboxItem {
  return toOneChannel(monitor, channelId, {
    id,
    kind: 'monitor.reminder',
    at: due.at,
    severity: 'critical',
    title: `${monitor.name} is still down (for ${formatDuration(due.at - monitor.stateSince)})`,
    reason: monitor.lastResult?.error ?? null,
    monitor: monitorFields(monitor, 'down'),
    downSince: monitor.stateSince,
  });
}

/** The summary to one channel of a flap calm since `lastChange`: `changes` changes since `sinceAt`, and the state now. */
export function flapEndedItem(
  monitor: Monitor,
  channelId: string,
  id: string,
  flap: { changes: number; sinceAt: number; lastChange: number; windowMs: number; previousState: string },
): OutboxItem {
  return toOneChannel(monitor, channelId, {
    id,
    kind: 'monitor.flapping',
    at: flap.lastChange + flap.windowMs,
    severity: STATE_SEVERITY[monitor.state] ?? 'info',
    title: `${monitor.name} stopped flapping after ${flap.changes} changes in ${formatDuration(flap.lastChange - flap.sinceAt)}; now ${monitor.state}`,
    reason: null,
    monitor: monitorFields(monitor, flap.previousState),
    flap: { changes: flap.changes, sinceAt: flap.sinceAt, ended: true },
  });
}

const STATE_SEVERITY: Partial<Record<string, NotificationSeverity>> = {
  up: 'ok',
  degraded: 'warning',
  down: 'critical',
};

function monitorFields(monitor: Monitor, previousState: string): NonNullable<NotificationEvent['monitor']> {
  return {
    id: monitor.id,
    key: monitor.key,
    name: monitor.name,
    type: monitor.type,
    state: monitor.state,
    previousState,
    downtimeMs: null,
    players: null,
  };
}

const SEVERITY: Partial<Record<NotificationKind, NotificationSeverity>> = {
  'monitor.down': 'critical',
  'monitor.degraded': 'warning',
  'monitor.recovered': 'ok',
};

function titleOf(kind: NotificationKind, name: string, downtimeMs: number | null): string {
  if (kind === 'monitor.down') return `${name} is down`;
  if (kind === 'monitor.degraded') return `${name} is degraded`;
  return downtimeMs !== null ? `${name} is back up after ${formatDuration(downtimeMs)}` : `${name} is back up`;
}

export function formatDuration(ms: number): string {
  const s = Math.round(ms / 1000);
  if (s < 60) return `${s} s`;
  const m = Math.round(s / 60);
  if (m < 60) return `${m} min`;
  const h = Math.floor(m / 60);
  return m % 60 === 0 ? `${h} h` : `${h} h ${m % 60} min`;
}

function parseResult(json: string | null): LatestResult | null {
  if (json === null) return null;
  try {
    return JSON.parse(json) as LatestResult;
  } catch {
    return null;
  }
}

/** The failing check's error; for a monitor with several locations, after the locations that see it down. */
function reasonOf(change: StateChange): string | null {
  const error = errorOf(change.lastResult);
  if (change.locations) return error === null ? change.locations : `${change.locations}: ${error}`;
  return error ?? change.reason;
}

function errorOf(json: string | null): string | null {
  return parseResult(json)?.error ?? null;
}

/** Players online (and the maximum) when the game server's last check told: `data.players` a number or { online, max }. */
function playersOf(json: string | null): { online: number; max: number | null } | null {
  const data = parseResult(json)?.data as Record<string, unknown> | null | undefined;
  const players = data?.players;
  if (typeof players === 'number')
    return { online: players, max: typeof data?.maxPlayers === 'number' ? data.maxPlayers : null };
  if (players && typeof players === 'object') {
    const p = players as { online?: unknown; max?: unknown };
    if (typeof p.online === 'number') return { online: p.online, max: typeof p.max === 'number' ? p.max : null };
  }
  return null;
}

/** An event for one channel alone (a reminder, a flap's summary), about one monitor. */
function toOneChannel(monitor: Monitor, channelId: string, event: OutboxItem['event']): OutboxItem {
  return {
    organizationId: monitor.organizationId,
    subject: { monitorId: monitor.id, pageIds: null },
    only: [channelId],
    event,
  };
}
