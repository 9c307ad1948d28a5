// The notifications that time alone makes due: a monitor.reminder to each channel with `remindEveryMin` for each
// monitor still down in its scope (the k-th at stateSince + k × N), and the monitor.flapping summary to each channel
// with `flap` once a flapping monitor has had no change for its window. runner/notify-reminders.ts runs a pass every
// 15 s; every process may: the event ids are stable, so the same reminder or summary published twice is one delivery.
// A monitor whose open alert is acknowledged gets no reminders; the others carry the alert's signed ack link, as the
// alert itself did.
import type { Alert } from '../../domain/alert.js';
import type { Clock } from '../../domain/clock.js';
import { type NotificationChannel, stableEventId } from '../../domain/notification.js';
import { flapRule, reminderDue, STATE_CHANGE_KINDS } from '../../domain/notification-rules.js';
import type { Store } from '../../store/index.js';
import type { NotificationEvent } from '../channels/channel.js';
import { releasedAlertId } from '../events/dependencies.js';
import type { OutboxItem } from '../events/item.js';
import { flapEndedItem, reminderItem } from '../events/monitors.js';
import { createAckLinks } from './alerts.js';
import type { NotificationPublisher } from './outbox.js';
import { flapOf } from './rules.js';

/** Ids this process has published or ruled out, remembered so a pass does not look them up again (a bound, then forgotten). */
const SETTLED_MAX = 10_000;

/** One pass of reminders and flap summaries over every organization; resolves to how many deliveries it enqueued. */
export function createReminderPass(deps: {
  store: Store;
  notify?: NotificationPublisher | undefined;
  clock: Clock;
  /** The server's public address, read when a link is made, for the ack links (none without one). */
  ackLinkBase?: () => string;
}): () => Promise<number> {
  const { store } = deps;
  const linkFor = createAckLinks(deps.ackLinkBase ?? (() => ''));
  const settled = new Set<string>();
  const settle = (id: string) => {
    if (settled.size >= SETTLED_MAX) settled.clear();
    settled.add(id);
  };

  /** The latest reminder due to each reminding channel for each monitor down, after a down alert the channel was sent. */
  async function reminders(
    organizationId: string,
    channels: NotificationChannel[],
    now: number,
  ): Promise<OutboxItem[]> {
    const items: OutboxItem[] = [];
    const down = await store.monitorStates.listDown(organizationId);
    // An acknowledged alert is being seen to: its reminders stop (docs/notifications.md, "Escalation and acknowledgement").
    const open = new Map((await store.alerts.openOf(down.map((m) => m.id))).map((a) => [a.monitorId, a]));
    const withLink = alertLinks(now);
    for (const monitor of down)
      for (const channel of channels) {
        const alert = open.get(monitor.id);
        if (alert && alert.acknowledgedAt !== null) continue;
        const due = reminderDue(channel.rules, monitor.stateSince, now);
        if (!due) continue;
        const id = stableEventId(monitor.id, monitor.stateSince, due.k, channel.id, 'monitor.reminder');
        if (settled.has(id)) continue;
        const told = await store.deliveries.last({
          channelId: channel.id,
          monitorId: monitor.id,
          kinds: ['monitor.down'],
        });
        // Its down alert, or the one told when a parent that held it back was up again.
        const ofThisOutage =
          told !== undefined &&
          (told.eventId === stableEventId(monitor.id, monitor.stateSince, 'monitor.down') ||
            told.eventId === releasedAlertId(monitor.id, monitor.stateSince));
        // Still being sent (a hold, retries): asked again at the next sweep. Skipped, or none for this outage: never.
        if (ofThisOutage && (told.status === 'pending' || told.status === 'sending')) continue;
        if (!ofThisOutage || told.status !== 'sent') {
          settle(id);
          continue;
        }
        items.push(await withLink({ ...reminderItem(monitor, channel.id, due, id), organizationId }, alert));
      }
    return items;
  }

  /** An item with its open alert and that alert's ack link (one link per alert and pass). */
  function alertLinks(now: number) {
    const links = new Map<string, string | null>();
    return async (item: OutboxItem, alert: Alert | undefined): Promise<OutboxItem> => {
      if (!alert) return item;
      if (!links.has(alert.id)) links.set(alert.id, await linkFor(store, alert.id, now));
      const acknowledgeUrl = links.get(alert.id) ?? null;
      return { ...item, event: { ...item.event, alert: { id: alert.id, acknowledgeUrl } } };
    };
  }

  /** The summary of each flap that has been calm for its window: how many changes over how long, and the state now. */
  async function flapSummaries(
    organizationId: string,
    channels: NotificationChannel[],
    now: number,
  ): Promise<OutboxItem[]> {
    const items: OutboxItem[] = [];
    for (const channel of channels) {
      const rule = flapRule(channel.rules);
      if (!rule) continue;
      for (const notice of await store.deliveries.latestPerMonitor(channel.id, ['monitor.flapping'])) {
        const flap = flapOf(notice.event);
        const monitorId = notice.monitorId;
        if (!flap || flap.ended || monitorId === null) continue;
        const id = stableEventId(notice.eventId, channel.id, 'flap-ended');
        if (settled.has(id)) continue;
        const stats = await store.deliveries.stats({
          channelId: channel.id,
          monitorId,
          kinds: STATE_CHANGE_KINDS,
          since: flap.sinceAt,
        });
        const lastChange = stats.last ?? notice.createdAt;
        if (lastChange + rule.windowMs > now) continue;
        const monitor = await store.monitors.findById(monitorId);
        if (!monitor) {
          settle(id);
          continue;
        }
        const previousState = (JSON.parse(notice.event) as NotificationEvent).monitor?.state ?? monitor.state;
        const facts = {
          changes: stats.count,
          sinceAt: flap.sinceAt,
          lastChange,
          windowMs: rule.windowMs,
          previousState,
        };
        items.push({ ...flapEndedItem(monitor, channel.id, id, facts), organizationId });
      }
    }
    return items;
  }

  return async function pass(): Promise<number> {
    const notify = deps.notify;
    if (!notify) return 0;
    const now = deps.clock.now();
    let enqueued = 0;
    for (const organization of await store.organizations.list()) {
      const channels = await store.channels.listEnabled(organization.id);
      const reminding = channels.filter((c) => c.rules.remindEveryMin !== undefined);
      const flapping = channels.filter((c) => c.rules.flap !== undefined);
      if (reminding.length === 0 && flapping.length === 0) continue;
      const items = [
        ...(reminding.length > 0 ? await reminders(organization.id, reminding, now) : []),
        ...(flapping.length > 0 ? await flapSummaries(organization.id, flapping, now) : []),
      ];
      if (items.length === 0) continue;
      enqueued += await store.transaction((tx) => notify.publish(tx, items, now));
      notify.committed();
      for (const item of items) settle(item.event.id);
    }
    return enqueued;
  };
}
