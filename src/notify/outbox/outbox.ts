// The notification outbox's write side: inside a producer's transaction (an ingest commit, a verb, a sweep), the
// events it publishes (built in notify/events/) become one delivery per enabled channel whose rules want them (scope:
// domain/notification-rules.ts; hold, maintenance and flapping: notify/outbox/rules.ts) and, for incidents and
// maintenance, one per page subscriber (subscriber-fanout.ts), in the same transaction. What the rules need of an
// organization is cached (scope.ts) until a change event.
import type { Bus } from '../../bus/bus.js';
import type { Clock } from '../../domain/clock.js';
import type { Monitor } from '../../domain/monitor.js';
import type { NewDelivery } from '../../domain/notification.js';
import { channelWants, quietDuringMaintenance, underMaintenance } from '../../domain/notification-rules.js';
import type { Store } from '../../store/index.js';
import type { NotificationEvent } from '../channels/channel.js';
import { withDependents } from '../events/dependencies.js';
import type { OutboxItem } from '../events/item.js';
import { notificationKind, type StateChange, stateChangeItem } from '../events/monitors.js';
import { createAlertTracker } from './alerts.js';
import { createDeliveryIds } from './delivery-ids.js';
import { judgeDependencies } from './dependencies.js';
import { deliveriesFor, type EnqueueRulesContext, type FlapBatch } from './rules.js';
import { eventScope, loadScope, type OrganizationScope, showing } from './scope.js';
import { forSubscribers, subscriberDeliveries } from './subscriber-fanout.js';

/** What services and runners publish through: written on the caller's transaction, sent after its commit. */
export interface NotificationPublisher {
  /** Enqueues the deliveries these events call for on `tx` (the caller's transaction); returns how many were new. */
  publish(tx: Store, items: readonly OutboxItem[], now: number): Promise<number>;
  /** Called after a commit that may have enqueued: wakes the dispatcher. */
  committed(): void;
}

export interface NotificationOutbox extends NotificationPublisher {
  /** Enqueues the deliveries these changes call for on `tx` (the commit's transaction); returns how many were new. */
  enqueue(tx: Store, changes: readonly StateChange[], now: number): Promise<number>;
  /** Forgets the cached channels (all organizations', or one's). */
  invalidate(organizationId?: string): void;
  close(): void;
}

/** How long an organization's channels are kept without a change event (another process's write is seen by then at worst). */
export const CHANNEL_CACHE_MS = 60_000;

type OrganizationEntry = OrganizationScope;

export function createNotificationOutbox(deps: {
  bus?: Bus;
  clock: Clock;
  baseUrl?: () => string;
  onCommitted?: () => void;
}): NotificationOutbox {
  const cache = new Map<string, OrganizationEntry>();
  // Channels, the monitors' and pages' `notify`, components (groups) and maintenance windows: each change drops what it touches.
  const forget = (organizationId: string) => cache.delete(organizationId);
  const forgetPage = (pageId: string) => {
    const holding = [...cache].filter(([, entry]) => entry.pages.has(pageId));
    // A page not cached yet (just created, or its organization has no channels): any organization may hold it.
    if (holding.length === 0) cache.clear();
    for (const [organizationId] of holding) cache.delete(organizationId);
  };
  const subscriptions = deps.bus
    ? [
        deps.bus.subscribe('notifications.changed', (event) => forget(event.organizationId)),
        deps.bus.subscribe('monitors.changed', (event) => forget(event.organizationId)),
        deps.bus.subscribe('page.changed', (event) => forgetPage(event.pageId)),
      ]
    : [];
  const alerts = createAlertTracker(() => deps.baseUrl?.() ?? '');
  const deliveryId = createDeliveryIds();

  async function entryFor(tx: Store, organizationId: string, now: number): Promise<OrganizationEntry> {
    const cached = cache.get(organizationId);
    if (cached && now - cached.loadedAt < CHANNEL_CACHE_MS && now >= cached.loadedAt) return cached;
    const entry = await loadScope(tx, organizationId, now);
    cache.set(organizationId, entry);
    return entry;
  }

  /** `known`: monitor rows the caller already read in this transaction (ingest's enqueue), not read again. */
  async function publish(
    tx: Store,
    items: readonly OutboxItem[],
    now: number,
    known?: ReadonlyMap<string, Monitor>,
  ): Promise<number> {
    if (items.length === 0) return 0;
    const entries = new Map<string, OrganizationEntry>();
    for (const item of items)
      if (!entries.has(item.organizationId))
        entries.set(item.organizationId, await entryFor(tx, item.organizationId, now));
    const relevant = items.filter((item) => (entries.get(item.organizationId)?.channels.length ?? 0) > 0);
    // Incidents and maintenance also go to the pages' subscribers, whether the organization has channels or not.
    if (relevant.length === 0 && !items.some(forSubscribers)) return 0;
    const monitorIds = [...new Set(relevant.flatMap((i) => (i.subject.monitorId ? [i.subject.monitorId] : [])))];
    const missing = monitorIds.filter((id) => !known?.has(id));
    const monitors = new Map<string, Monitor>(known);
    if (missing.length > 0) for (const m of await tx.monitors.findByIds(missing)) monitors.set(m.id, m);
    const base = deps.baseUrl?.() ?? '';
    const rows: NewDelivery[] = [];
    const rules = { tx, now, newId: () => deliveryId(now), batch: new Map() as FlapBatch };
    for (const item of relevant) {
      const entry = entries.get(item.organizationId) as OrganizationEntry;
      if (!entry.organization) continue;
      const monitor = item.subject.monitorId ? monitors.get(item.subject.monitorId) : undefined;
      if (item.subject.monitorId && !monitor) continue;
      rows.push(...(await channelDeliveries(rules, entry, entry.organization, item, monitor, base)));
    }
    // Page subscribers' deliveries (incidents, maintenance) are chosen beside the channels', here.
    rows.push(...(await subscriberDeliveries(tx, items, { baseUrl: base, now, newId: () => deliveryId(now) })));
    return rows.length > 0 ? tx.deliveries.enqueue(rows, now) : 0;
  }

  return {
    publish: (tx, items, now) => publish(tx, items, now),
    async enqueue(tx, changes, now) {
      const items: OutboxItem[] = [];
      // Alerts open and close whether or not anyone is told (the dashboard and the API show them).
      const moves = await alerts.track(tx, changes, now);
      const monitorIds = [
        ...new Set(changes.flatMap((c) => (notificationKind(c.previous, c.state) ? [c.monitorId] : []))),
      ];
      if (monitorIds.length === 0)
        return moves.closed.size > 0 ? publish(tx, await alerts.escalate(tx, [], moves, now), now) : 0;
      // Cheap first: an organization without channels needs no monitor rows.
      const withChannels = new Set<string>();
      for (const c of changes)
        if (!withChannels.has(c.organizationId) && (await entryFor(tx, c.organizationId, now)).channels.length > 0)
          withChannels.add(c.organizationId);
      if (withChannels.size === 0) return 0;
      const monitors = new Map((await tx.monitors.findByIds(monitorIds)).map((m) => [m.id, m]));
      const dependencies = await judgeDependencies(
        tx,
        changes.filter((c) => withChannels.has(c.organizationId)),
        monitors,
      );
      for (const change of changes) {
        const kind = notificationKind(change.previous, change.state);
        const monitor = monitors.get(change.monitorId);
        if (!kind || !monitor || !withChannels.has(change.organizationId)) continue;
        const item = withDependents(
          stateChangeItem(change, monitor, kind),
          dependencies.dependents.get(monitor.id) ?? 0,
        );
        items.push({ ...item, heldBack: dependencies.held.get(monitor.id) });
      }
      items.push(...dependencies.released);
      return publish(tx, await alerts.escalate(tx, items, moves, now), now, monitors);
    },
    invalidate(organizationId) {
      if (organizationId === undefined) cache.clear();
      else cache.delete(organizationId);
    },
    committed() {
      deps.onCommitted?.();
    },
    close() {
      for (const unsubscribe of subscriptions) unsubscribe();
    },
  };
}

/** One event's deliveries to the organization's channels: those asked for (`only`) whose scope and rules take it. */
async function channelDeliveries(
  rules: EnqueueRulesContext,
  entry: OrganizationEntry,
  organization: NonNullable<OrganizationEntry['organization']>,
  item: OutboxItem,
  monitor: Monitor | undefined,
  base: string,
): Promise<NewDelivery[]> {
  const shownBy = monitor ? showing(entry, monitor.id) : [];
  const pageIds = item.subject.pageIds ?? [...new Set(shownBy.map((s) => s.pageId))];
  // Channels: the ones asked for (`only`), whose scope takes the event (domain/notification-rules.ts, channelWants).
  const candidates = entry.channels.filter((ch) => !item.only || item.only.includes(ch.id));
  const scope =
    candidates.length > 0 ? await eventScope(rules.tx, entry, item.organizationId, item.event, monitor, pageIds) : null;
  const channels = item.direct
    ? candidates
    : scope
      ? candidates.filter((ch) => channelWants(ch, scope, entry.named))
      : [];
  if (channels.length === 0) return [];
  const pages = pageIds.flatMap((id) => {
    const page = entry.pages.get(id);
    return page ? [{ slug: page.slug, title: page.title, url: `${base}/s/${page.slug}` }] : [];
  });
  const event: NotificationEvent = {
    ...item.event,
    organization: { key: organization.key, name: organization.name },
    pages,
    ...(base ? { dashboardUrl: `${base}/app` } : {}),
  };
  const json = JSON.stringify(event);
  const delivery = {
    eventId: event.id,
    organizationId: item.organizationId,
    monitorId: monitor?.id ?? null,
    kind: event.kind,
  };
  // Held back behind a down parent: every channel's delivery is recorded as skipped, with why.
  const { heldBack } = item;
  if (heldBack !== undefined)
    return channels.map((channel) => ({
      ...delivery,
      id: rules.newId(),
      channelId: channel.id,
      event: json,
      nextAttemptAt: rules.now,
      status: 'skipped' as const,
      lastError: heldBack,
    }));
  const covered =
    monitor !== undefined &&
    channels.some((ch) => quietDuringMaintenance(ch.rules)) &&
    underMaintenance(event.at, monitor.id, shownBy, entry.windows, monitor.expectedRestart);
  const rows: NewDelivery[] = [];
  for (const channel of channels) rows.push(...(await deliveriesFor(rules, channel, event, json, delivery, covered)));
  return rows;
}
