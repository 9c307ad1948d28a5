// What an audit entry names an object by, read before a verb changes or deletes it: nothing for another organization's
// object (or none at all), so the entry of a refused request names nothing it may not see.
import { organizationOf, type ServiceContext } from '../context.js';

export type AuditLabel = { label: string } | undefined;

/** A monitor's id and key, by its id or key (as the path named it). */
export async function monitorLabel(
  ctx: ServiceContext,
  { id }: { id: string },
): Promise<{ id: string; label: string } | undefined> {
  const organizationId = organizationOf(ctx);
  const byId = await ctx.store.monitors.findById(id);
  const monitor =
    byId?.organizationId === organizationId ? byId : await ctx.store.monitors.findByKey(organizationId, id);
  return monitor && monitor.organizationId === organizationId ? { id: monitor.id, label: monitor.key } : undefined;
}

/** A relay's id and key, by its id or key (as the path named it). */
export async function relayLabel(
  ctx: ServiceContext,
  { id }: { id: string },
): Promise<{ id: string; label: string } | undefined> {
  const organizationId = organizationOf(ctx);
  const byId = await ctx.store.relays.findById(id);
  const relay = byId?.organizationId === organizationId ? byId : await ctx.store.relays.findByKey(organizationId, id);
  return relay && relay.organizationId === organizationId ? { id: relay.id, label: relay.key } : undefined;
}

/** An active API key's name, by its id. */
export async function apiKeyLabel(ctx: ServiceContext, { id }: { id: string }): Promise<AuditLabel> {
  const key = (await ctx.store.apiKeys.list(organizationOf(ctx))).find((k) => k.id === id);
  return key ? { label: key.name } : undefined;
}

/** A page's id, by its slug. */
export async function pageId(
  ctx: ServiceContext,
  { slug }: { slug: string },
): Promise<{ id: string; label: string } | undefined> {
  const bySlug = await ctx.store.pages.findBySlug(slug);
  const page = bySlug?.organizationId === ctx.organizationId ? bySlug : await ctx.store.pages.findById(slug);
  return page && page.organizationId === ctx.organizationId ? { id: page.id, label: page.slug } : undefined;
}

/** A notification channel's id and key, by its key or id (as the path named it). */
export async function channelId(
  ctx: ServiceContext,
  { key }: { key: string },
): Promise<{ id: string; label: string } | undefined> {
  const organizationId = organizationOf(ctx);
  const channel = (await ctx.store.channels.findByKey(organizationId, key)) ?? (await ctx.store.channels.findById(key));
  return channel && channel.organizationId === organizationId ? { id: channel.id, label: channel.key } : undefined;
}
