// Relay events: a relay gone offline (how long it has been silent) and back (after how long). Pure; the outbox's relay
// marks (notify/outbox/relays.ts) decide when, once per outage.
import { stableEventId } from '../../domain/notification.js';
import type { Relay } from '../../domain/organization.js';
import { humanDuration, utc } from './format.js';
import type { OutboxItem } from './item.js';

/** `relay.offline`: last heard from at `lastSeenAt`; `pageIds` the pages that show its monitors. */
export function relayOfflineItem(
  relay: Relay,
  pageIds: readonly string[],
  lastSeenAt: number,
  now: number,
): OutboxItem {
  const reason = `Not heard from for ${humanDuration(now - lastSeenAt)} (last seen ${utc(lastSeenAt)}); its monitors are unknown until it is back.`;
  return relayItem(relay, pageIds, 'relay.offline', now, now, `Relay ${relay.name} is offline`, reason);
}

/** `relay.back`: the outage that began at `offlineSince`, silent for `silentMs`. */
export function relayBackItem(
  relay: Relay,
  pageIds: readonly string[],
  offlineSince: number,
  silentMs: number,
  now: number,
): OutboxItem {
  return relayItem(
    relay,
    pageIds,
    'relay.back',
    offlineSince,
    now,
    `Relay ${relay.name} is back after ${humanDuration(silentMs)}`,
    null,
  );
}

function relayItem(
  relay: Relay,
  pageIds: readonly string[],
  kind: 'relay.offline' | 'relay.back',
  offlineSince: number,
  at: number,
  title: string,
  reason: string | null,
): OutboxItem {
  return {
    organizationId: relay.organizationId,
    subject: { monitorId: null, pageIds },
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
