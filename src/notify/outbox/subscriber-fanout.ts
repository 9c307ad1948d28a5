// The outbox's page-subscriber half: an incident or maintenance event of a page that takes subscriptions (and has no
// password), or a game change of a monitor it shows when it announces them (announceGameChanges), becomes one delivery
// per confirmed subscriber, in the producer's transaction. Every delivery carries the
// event's own id, the one the channels get (`webhook-id`; an email's Message-ID adds the subscriber's id).
// Looked up without a cache: such events are rare (people write them) and a subscriber's confirmation must count at once.
import type { NewDelivery } from '../../domain/notification.js';
import type { Organization } from '../../domain/organization.js';
import type { Store } from '../../store/index.js';
import type { NotificationEvent } from '../channels/channel.js';
import type { OutboxItem } from '../events/item.js';

/**
 * Whether subscribers may hear of this kind of event: incidents and maintenance, and game changes (on the pages that
 * announce them); never a monitor's state or its other player alerts.
 */
export function forSubscribers(item: OutboxItem): boolean {
  const { kind } = item.event;
  if (kind === 'game.changed') return item.subject.monitorId !== null;
  return (kind.startsWith('incident.') || kind.startsWith('maintenance.')) && (item.subject.pageIds?.length ?? 0) > 0;
}

/** The pages whose subscribers an item may reach: those it names, or for a game change the pages showing its monitor. */
async function pagesOf(tx: Store, item: OutboxItem): Promise<string[]> {
  if (item.event.kind !== 'game.changed') return [...new Set(item.subject.pageIds)];
  return item.subject.monitorId === null ? [] : tx.components.pageIdsShowing(item.subject.monitorId);
}

export async function subscriberDeliveries(
  tx: Store,
  items: readonly OutboxItem[],
  options: { baseUrl: string; now: number; newId: () => string },
): Promise<NewDelivery[]> {
  const rows: NewDelivery[] = [];
  let organizations: Organization[] | null = null;
  for (const item of items) {
    if (!forSubscribers(item)) continue;
    const gameChange = item.event.kind === 'game.changed';
    for (const pageId of await pagesOf(tx, item)) {
      const page = await tx.pages.findById(pageId);
      if (!page || page.organizationId !== item.organizationId || !page.subscriptions || page.passwordHash !== null)
        continue;
      if (gameChange && !page.announceGameChanges) continue;
      const subscribers = await tx.subscribers.listConfirmed(page.id);
      if (subscribers.length === 0) continue;
      organizations ??= await tx.organizations.list();
      const organization = organizations.find((o) => o.id === item.organizationId);
      if (!organization) continue;
      const event: NotificationEvent = {
        ...item.event,
        organization: { key: organization.key, name: organization.name },
        pages: [{ slug: page.slug, title: page.title, url: `${options.baseUrl}/s/${page.slug}` }],
      };
      const json = JSON.stringify(event);
      for (const subscriber of subscribers)
        rows.push({
          id: options.newId(),
          eventId: event.id,
          channelId: null,
          subscriberId: subscriber.id,
          organizationId: item.organizationId,
          monitorId: null,
          kind: event.kind,
          event: json,
          nextAttemptAt: options.now,
        });
    }
  }
  return rows;
}
