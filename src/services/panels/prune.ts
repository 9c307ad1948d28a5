// Servers gone from the panel: the objects apply made for this panel's servers (monitors tagged `pterodactyl` and with
// the panel's tag, not warden.yaml's) that the panel no longer lists, with their component and restart window on the
// apply's page. Listed as `gone`, or deleted and listed as `removed` when the apply prunes.
import { deleteComponent } from '../components/write.js';
import { organizationOf, type ServiceContext } from '../context.js';
import { deleteMaintenance } from '../maintenance/write.js';
import { deleteMonitor } from '../monitors/write.js';
import { requirePage } from '../pages/read.js';
import { PANEL_KEY_PREFIX, PANEL_TAG, panelTag, RESOURCES_SUFFIX, RESTARTS_SUFFIX } from './proposals.js';

/** A server the panel no longer lists, by the key apply gave its objects, and those objects' keys. */
export interface GoneServer {
  key: string;
  monitors: string[];
  component: string | null;
  restarts: string | null;
}

/** What apply made for this panel that is not among `listed` (the server keys the panel still lists). */
export async function goneServers(
  ctx: ServiceContext,
  slug: string,
  panelUrl: string,
  listed: ReadonlySet<string>,
): Promise<GoneServer[]> {
  const tag = panelTag(panelUrl);
  const monitors = (await ctx.store.monitors.list(organizationOf(ctx))).filter(
    (m) =>
      m.managedBy === 'api' && m.key.startsWith(PANEL_KEY_PREFIX) && m.tags.includes(PANEL_TAG) && m.tags.includes(tag),
  );
  const gone = new Map<string, GoneServer>();
  for (const monitor of monitors) {
    const key = monitor.key.endsWith(RESOURCES_SUFFIX) ? monitor.key.slice(0, -RESOURCES_SUFFIX.length) : monitor.key;
    if (listed.has(key)) continue;
    const server = gone.get(key) ?? { key, monitors: [], component: null, restarts: null };
    server.monitors.push(monitor.key);
    gone.set(key, server);
  }
  if (gone.size === 0) return [];
  const page = await requirePage(ctx, slug);
  for (const component of await ctx.store.components.list(page.id)) {
    const server = gone.get(component.key);
    if (server && component.managedBy === 'api') server.component = component.key;
  }
  for (const server of gone.values()) {
    const window = await ctx.store.maintenance.findByKey(page.id, `${server.key}${RESTARTS_SUFFIX}`);
    if (window && window.managedBy === 'api') server.restarts = window.key;
  }
  return [...gone.values()]
    .map((s) => ({ ...s, monitors: s.monitors.sort() }))
    .sort((a, b) => a.key.localeCompare(b.key));
}

/** Deletes what `goneServers` found: the window first (it names the monitors), then the component, then the monitors. */
export async function removeGone(ctx: ServiceContext, slug: string, gone: readonly GoneServer[]): Promise<void> {
  const page = await requirePage(ctx, slug);
  for (const server of gone) {
    const window =
      server.restarts === null ? undefined : await ctx.store.maintenance.findByKey(page.id, server.restarts);
    if (window) await deleteMaintenance(ctx, { slug, id: window.id });
    const component = (await ctx.store.components.list(page.id)).find((c) => c.key === server.component);
    if (component) await deleteComponent(ctx, { slug, id: component.id });
    for (const key of server.monitors) {
      const monitor = await ctx.store.monitors.findByKey(organizationOf(ctx), key);
      if (monitor) await deleteMonitor(ctx, { id: monitor.id });
    }
  }
}
