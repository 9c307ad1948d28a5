// A relay going offline and coming back: the mark on its row and the notice, in the caller's transaction. The mark is
// conditional, so one process (and one sweep) tells each outage once, and the event ids are stable per outage.
import { stableEventId } from '../../domain/notification.js';
import type { Relay } from '../../domain/organization.js';
import { humanDuration, utc } from '../../notify/format.js';
import type { NotificationPublisher, OutboxItem } from '../../runner/notify-outbox.js';
import type { Store } from '../../store/index.js';

/**
 * Marks a relay offline (last seen at `lastSeenAt`, silent since) and publishes `relay.offline`; nothing when it is
 * already marked or was heard from meanwhile. Returns how many deliveries were enqueued.
 */
export async function relayWentOffline(tx: Store, notify: NotificationPublisher | undefined, relayId: string, lastSeenAt: number, now: number): Promise<number> {
  if (!(await tx.relays.markOffline(relayId, lastSeenAt, now))) return 0;
  const relay = notify ? await tx.relays.findById(relayId) : undefined;
  if (!notify || !relay) return 0;
  const reason = `Not heard from for ${humanDuration(now - lastSeenAt)} (last seen ${utc(lastSeenAt)}); its monitors are unknown until it is back.`;
  return notify.publish(tx, [await relayItem(tx, relay, 'relay.offline', now, now, `Relay ${relay.name} is offline`, reason)], now);
}

/**
 * Clears a relay's offline mark (set at `offlineSince`) as it is heard from again, and publishes `relay.back` with how
 * long it was silent (since `lastSeenAt`). Nothing when another request or process cleared it first.
 */
export async function relayCameBack(
  tx: Store,
  notify: NotificationPublisher | undefined,
  relay: Relay,
  offlineSince: number,
  lastSeenAt: number | null,
  now: number,
): Promise<number> {
  if (!(await tx.relays.markBack(relay.id, offlineSince, now))) return 0;
  if (!notify) return 0;
  const silentMs = now - (lastSeenAt ?? offlineSince);
  return notify.publish(tx, [await relayItem(tx, relay, 'relay.back', offlineSince, now, `Relay ${relay.name} is back after ${humanDuration(silentMs)}`, null)], now);
}

async function relayItem(
  tx: Store,
  relay: Relay,
  kind: 'relay.offline' | 'relay.back',
  offlineSince: number,
  at: number,
  title: string,
  reason: string | null,
): Promise<OutboxItem> {
  return {
    organizationId: relay.organizationId,
    subject: { monitorId: null, pageIds: await tx.components.pageIdsShowingRelay(relay.id) },
    event: {
      id: stableEventId(relay.id, offlineSince, kind),
      kind,
      at,
      severity: kind === 'relay.offline' ? 'warning' : 'ok',
      title,
      reason,
      relay: { key: relay.key, name: relay.name },
    },
  };
}
