// A relay going offline and coming back: the mark on its row and the notice, in the caller's transaction. The mark is
// conditional, so one process (and one sweep) tells each outage once, and the event ids are stable per outage. The
// watchdog (offline) and the relay's next request (back) call these.
import type { Relay } from '../../domain/organization.js';
import type { Store } from '../../store/index.js';
import { relayBackItem, relayOfflineItem } from '../events/relays.js';
import type { NotificationPublisher } from './outbox.js';

/**
 * Marks a relay offline (last seen at `lastSeenAt`, silent since) and publishes `relay.offline`; nothing when it is
 * already marked or was heard from meanwhile. Returns how many deliveries were enqueued.
 */
export async function relayWentOffline(
  tx: Store,
  notify: NotificationPublisher | undefined,
  relayId: string,
  lastSeenAt: number,
  now: number,
): Promise<number> {
  if (!(await tx.relays.markOffline(relayId, lastSeenAt, now))) return 0;
  const relay = notify ? await tx.relays.findById(relayId) : undefined;
  if (!notify || !relay) return 0;
  return notify.publish(
    tx,
    [relayOfflineItem(relay, await tx.components.pageIdsShowingRelay(relay.id), lastSeenAt, now)],
    now,
  );
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
  return notify.publish(
    tx,
    [relayBackItem(relay, await tx.components.pageIdsShowingRelay(relay.id), offlineSince, silentMs, now)],
    now,
  );
}
