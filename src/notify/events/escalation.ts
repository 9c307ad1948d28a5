// Escalation events, built from an alert and its policy: a step's message (the monitor's down or degraded alert, to
// the step's channels, "not acknowledged for 15 min" from the second step on) and the resolve that closes it at every
// channel a step reached. Pure: the outbox and the escalation scan hand the facts in and publish what comes back.
import type { Alert } from '../../domain/alert.js';
import type { Monitor } from '../../domain/monitor.js';
import { stableEventId } from '../../domain/notification.js';
import type { OutboxItem } from './item.js';
import { formatDuration } from './monitors.js';

/** The event id of step `step` (or the resolve) of an alert: one delivery per channel, whoever publishes it. */
export const escalationEventId = (alertId: string, step: number | 'resolved') =>
  stableEventId('escalate', alertId, step);

/** Step `step` of `alert` to these channels (ids); `base`: the alert's own event (step 1 is the change's). */
export function escalationStepItem(
  base: OutboxItem,
  alert: Alert,
  step: number,
  channelIds: readonly string[],
  at: number,
): OutboxItem {
  const name = base.event.monitor?.name ?? 'A monitor';
  const title =
    step === 1
      ? base.event.title
      : `${name} is ${alert.openedState}, not acknowledged for ${formatDuration(at - alert.openedAt)} (escalation step ${step})`;
  return {
    ...base,
    only: channelIds,
    direct: true,
    event: {
      ...base.event,
      id: escalationEventId(alert.id, step),
      at: step === 1 ? base.event.at : at,
      title,
      alert: { id: alert.id, acknowledgeUrl: base.event.alert?.acknowledgeUrl ?? null, escalationStep: step },
    },
  };
}

/** The event a later step is built on: the monitor still down (or degraded) since the alert opened. */
export function openAlertItem(monitor: Monitor, alert: Alert, acknowledgeUrl: string | null): OutboxItem {
  const kind = alert.openedState === 'degraded' ? 'monitor.degraded' : 'monitor.down';
  return {
    organizationId: monitor.organizationId,
    subject: { monitorId: monitor.id, pageIds: null },
    event: {
      id: escalationEventId(alert.id, 0),
      kind,
      at: alert.openedAt,
      severity: kind === 'monitor.down' ? 'critical' : 'warning',
      title: `${monitor.name} is ${alert.openedState}`,
      reason: monitor.lastResult?.error ?? null,
      monitor: {
        id: monitor.id,
        key: monitor.key,
        name: monitor.name,
        type: monitor.type,
        state: monitor.state,
        previousState: 'up',
        downtimeMs: null,
        players: null,
      },
      alert: { id: alert.id, acknowledgeUrl },
    },
  };
}

/** The resolve of a closed alert to the channels its steps reached: the recovery, under the alert's own id. */
export function escalationResolveItem(recovered: OutboxItem, alert: Alert, channelIds: readonly string[]): OutboxItem {
  return {
    ...recovered,
    only: channelIds,
    direct: true,
    event: {
      ...recovered.event,
      id: escalationEventId(alert.id, 'resolved'),
      alert: { id: alert.id, acknowledgeUrl: null },
    },
  };
}
