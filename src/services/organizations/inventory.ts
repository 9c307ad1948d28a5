// What an organization holds, by key and with who manages it: what config sync compares warden.yaml with.
import type { ManagedBy } from '../../domain/ownership.js';
import { organizationOf, type ServiceContext } from '../context.js';

export interface Held {
  id: string;
  key: string;
  managedBy: ManagedBy;
}

export interface PageHoldings extends Held {
  components: Held[];
  /** Incidents and windows with a key (the file names its own by key; the API's may have none). */
  incidents: Held[];
  maintenance: Held[];
  boards: Held[];
}

export interface Inventory {
  relays: Held[];
  monitors: Held[];
  pages: PageHoldings[];
  notifications: Held[];
  escalationPolicies: Held[];
}

const held = (o: { id: string; key: string | null; managedBy: ManagedBy }): Held[] =>
  o.key === null ? [] : [{ id: o.id, key: o.key, managedBy: o.managedBy }];

/** The organization's relays, monitors, pages, notification channels and escalation policies, read at once (what sync and export start from). */
export async function organizationObjects(ctx: ServiceContext) {
  const organizationId = organizationOf(ctx);
  const { store } = ctx;
  const [relays, monitors, pages, channels, policies] = await Promise.all([
    store.relays.list(organizationId),
    store.monitors.list(organizationId),
    store.pages.list(organizationId),
    store.channels.list(organizationId),
    store.escalationPolicies.list(organizationId),
  ]);
  return { relays, monitors, pages, channels, policies };
}

/** A page's components, all its incidents, its maintenance windows and its boards. */
export async function pageObjects(ctx: ServiceContext, pageId: string) {
  const [components, incidents, maintenance, boards] = await Promise.all([
    ctx.store.components.list(pageId),
    ctx.store.incidents.list(pageId, { limit: Number.MAX_SAFE_INTEGER }),
    ctx.store.maintenance.list(pageId),
    ctx.store.boards.list(pageId),
  ]);
  return { components, incidents, maintenance, boards };
}

export async function organizationInventory(ctx: ServiceContext): Promise<Inventory> {
  const { relays, monitors, pages, channels, policies } = await organizationObjects(ctx);
  return {
    relays: relays.flatMap(held),
    monitors: monitors.flatMap(held),
    pages: await Promise.all(
      pages.map(async (page) => {
        const { components, incidents, maintenance, boards } = await pageObjects(ctx, page.id);
        return {
          id: page.id,
          key: page.slug,
          managedBy: page.managedBy,
          components: components.flatMap(held),
          incidents: incidents.flatMap(held),
          maintenance: maintenance.flatMap(held),
          boards: boards.flatMap(held),
        };
      }),
    ),
    notifications: channels.flatMap(held),
    escalationPolicies: policies.flatMap(held),
  };
}
