// The rules judged just before a channel's delivery is sent (the dispatcher's gate): a held state change whose state
// did not hold is no longer news, nor one whose parent went down meanwhile (docs/monitors.md, "Dependencies"), and a
// recovery is not told to a channel that was not told of the outage.
import { dependencyGraph, downAncestor, unreachableReason } from '../../domain/dependencies.js';
import type { Delivery, NotificationRules } from '../../domain/notification.js';
import { holdMs } from '../../domain/notification-rules.js';
import type { Store } from '../../store/index.js';
import type { NotificationEvent } from '../channels/channel.js';

export type DeliveryGate = (
  delivery: Delivery,
  event: NotificationEvent,
  rules: NotificationRules,
) => Promise<string | null>;

/** A reason to skip the delivery (kept in its log as `skipped`), or null to send it. */
export function createRulesGate(deps: { store: Store }): DeliveryGate {
  const { store } = deps;
  return async (delivery, event, rules) => {
    if (delivery.channelId === null || delivery.monitorId === null) return null;
    const hold = holdMs(rules, delivery.kind);
    // Judged on the first attempt (the hold is over then); a retry sends what already passed.
    if (hold > 0 && delivery.attempts <= 1 && event.monitor) {
      const monitor = await store.monitors.findById(delivery.monitorId);
      // A down alert told late (held back behind a parent) is about the outage that began at downSince.
      if (monitor && (monitor.state !== event.monitor.state || monitor.stateSince !== (event.downSince ?? event.at)))
        return `the state did not hold for ${hold / 1000} s`;
      if (monitor && (delivery.kind === 'monitor.down' || delivery.kind === 'monitor.degraded')) {
        const held = await unreachable(store, monitor.organizationId, monitor.key);
        if (held) return held;
      }
    }
    if (delivery.kind === 'monitor.recovered') {
      const outage = await store.deliveries.last({
        channelId: delivery.channelId,
        monitorId: delivery.monitorId,
        kinds: ['monitor.down', 'monitor.degraded'],
        before: delivery,
      });
      if (outage?.status === 'skipped')
        return `its ${outage.kind.replace('monitor.', '')} alert was not sent (${outage.lastError ?? 'skipped'})`;
    }
    return null;
  };
}

/** Why a monitor's alert is held back now (an ancestor is down), or null. */
async function unreachable(store: Store, organizationId: string, key: string): Promise<string | null> {
  if (!(await store.dependencies.any(organizationId))) return null;
  const parent = downAncestor(dependencyGraph(await store.dependencies.nodes(organizationId)), key);
  return parent ? unreachableReason(parent) : null;
}
