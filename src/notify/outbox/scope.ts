// What the outbox knows of an organization to pick the channels of an event: its enabled channels, its pages (with the
// channels they name), the channels its monitors name, its components (pages and groups showing each monitor) and its
// maintenance windows. Loaded once and cached by the outbox until a change event (or CHANNEL_CACHE_MS) says otherwise.
import type { NotificationChannel } from '../../domain/notification.js';
import type { EventScope, WindowCover } from '../../domain/notification-rules.js';
import type { Organization } from '../../domain/organization.js';
import type { Component, Page } from '../../domain/page.js';
import type { Store } from '../../store/index.js';
import type { NotificationEvent } from '../channels/channel.js';

export interface OrganizationScope {
  organization: Organization | undefined;
  channels: NotificationChannel[];
  pages: Map<string, Page>;
  /** Keys of the channels some monitor or page names. */
  named: Set<string>;
  components: Component[];
  /** Windows not over when loaded. */
  windows: WindowCover[];
  loadedAt: number;
}

/** The organization's scope; everything but the channels only when it has some (nothing is sent otherwise). */
export async function loadScope(tx: Store, organizationId: string, now: number): Promise<OrganizationScope> {
  const channels = await tx.channels.listEnabled(organizationId);
  const scope: OrganizationScope = {
    organization: undefined,
    channels,
    pages: new Map(),
    named: new Set(),
    components: [],
    windows: [],
    loadedAt: now,
  };
  if (channels.length === 0) return scope;
  scope.organization = (await tx.organizations.list()).find((o) => o.id === organizationId);
  const pages = await tx.pages.list(organizationId);
  scope.pages = new Map(pages.map((p) => [p.id, p]));
  for (const named of [...pages, ...(await tx.monitors.listNotify(organizationId))])
    for (const key of named.notify ?? []) scope.named.add(key);
  scope.components = await tx.components.listOfOrganization(organizationId);
  scope.windows = await tx.maintenance.listOfOrganization(organizationId, now);
  return scope;
}

/** The components that show a monitor, on which page each. */
export function showing(scope: OrganizationScope, monitorId: string): { pageId: string; componentId: string }[] {
  return scope.components
    .filter((c) => c.monitorId === monitorId)
    .map((c) => ({ pageId: c.pageId, componentId: c.id }));
}

/** What the channels' scope rules need to know of one event; the lookups only when some channel's rules ask for them. */
export async function eventScope(
  tx: Store,
  scope: OrganizationScope,
  organizationId: string,
  event: Omit<NotificationEvent, 'organization' | 'pages'>,
  monitor: { id: string; key: string; notify: string[] | null } | undefined,
  pageIds: readonly string[],
): Promise<EventScope> {
  const pages = pageIds.flatMap((id) => {
    const page = scope.pages.get(id);
    return page ? [{ slug: page.slug, notify: page.notify }] : [];
  });
  const wanted = (field: 'groups' | 'monitors') => scope.channels.some((c) => c.rules[field] !== undefined);
  const groups = wanted('groups') ? await groupsOf(tx, scope, event, monitor?.id, pageIds) : [];
  let relayMonitorKeys: string[] = [];
  if (!monitor && event.relay && wanted('monitors')) {
    const relay = await tx.relays.findByKey(organizationId, event.relay.key);
    relayMonitorKeys = relay ? await tx.monitors.keysOnRelay(relay.id) : [];
  }
  return {
    kind: event.kind,
    monitor: monitor ? { key: monitor.key, notify: monitor.notify } : null,
    pages,
    groups,
    relayMonitorKeys,
  };
}

/**
 * The groups involved, on the event's pages: of the components that show the monitor, or of the incident's or the
 * window's components (a window's also those showing a monitor it covers; all of the page's when it names none: it is
 * page-wide).
 */
async function groupsOf(
  tx: Store,
  scope: OrganizationScope,
  event: Omit<NotificationEvent, 'organization' | 'pages'>,
  monitorId: string | undefined,
  pageIds: readonly string[],
): Promise<string[]> {
  const onPages = scope.components.filter((c) => pageIds.includes(c.pageId));
  let involved: Component[] = [];
  if (monitorId) involved = onPages.filter((c) => c.monitorId === monitorId);
  else if (event.incident) {
    const named = (await tx.incidents.findById(event.incident.id))?.componentIds;
    involved = !named || named.length === 0 ? onPages : onPages.filter((c) => named.includes(c.id));
  } else if (event.maintenance) {
    const window = await tx.maintenance.findById(event.maintenance.id);
    const covers = (c: Component) =>
      window?.componentIds.includes(c.id) || (c.monitorId !== null && window?.monitorIds.includes(c.monitorId));
    const pageWide = !window || (window.componentIds.length === 0 && window.monitorIds.length === 0);
    involved = pageWide ? onPages : onPages.filter(covers);
  }
  return [...new Set(involved.flatMap((c) => (c.group === null ? [] : [c.group])))];
}
