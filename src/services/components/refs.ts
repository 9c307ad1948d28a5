// How bodies and warden.yaml name things on a page: monitors by key, components by key or name; and the keys views show.
import { type FieldIssue, NotFoundError, ValidationError } from '../../domain/errors.js';
import type { Page } from '../../domain/page.js';
import { organizationOf, type ServiceContext } from '../context.js';
import { requirePage } from '../pages/read.js';

/** The page (of the caller's organization) and the object with this id on it; another page's is "not found". */
export async function requireOnPage<T extends { pageId: string }>(
  ctx: ServiceContext,
  slug: string,
  id: string,
  what: string,
  find: (id: string) => Promise<T | undefined>,
): Promise<{ page: Page; item: T }> {
  const page = await requirePage(ctx, slug);
  const item = await find(id);
  if (!item || item.pageId !== page.id) throw new NotFoundError(what, id);
  return { page, item };
}

/** The id of the organization's monitor with this key; a validation error on `monitor` otherwise. */
export async function resolveMonitorKey(ctx: ServiceContext, key: string): Promise<string> {
  const monitor = await ctx.store.monitors.findByKey(organizationOf(ctx), key);
  if (!monitor) throw new ValidationError([{ path: 'monitor', message: `no monitor with key "${key}"` }]);
  return monitor.id;
}

/** Monitor ids for references by key (a maintenance window's `monitors`); every unknown one is named. */
export async function resolveMonitorKeys(
  ctx: ServiceContext,
  keys: readonly string[],
  field = 'monitors',
): Promise<string[]> {
  if (keys.length === 0) return [];
  const byKey = new Map((await ctx.store.monitors.list(organizationOf(ctx))).map((m) => [m.key, m.id]));
  const issues: FieldIssue[] = [];
  const ids = keys.map((key, i) => {
    const id = byKey.get(key);
    if (id === undefined) issues.push({ path: `${field}[${i}]`, message: `no monitor with key "${key}"` });
    return id;
  });
  if (issues.length > 0) throw new ValidationError(issues);
  return [...new Set(ids as string[])];
}

/** Monitor ids to keys, for views. */
export async function monitorKeysById(ctx: ServiceContext): Promise<Map<string, string>> {
  return new Map((await ctx.store.monitors.list(organizationOf(ctx))).map((m) => [m.id, m.key]));
}

/** Component ids for references by key or name (as in warden.yaml); every unknown one is named. */
export async function resolveComponentRefs(
  ctx: ServiceContext,
  pageId: string,
  refs: readonly string[],
  field = 'components',
): Promise<string[]> {
  const components = await ctx.store.components.list(pageId);
  const byRef = new Map<string, string>();
  for (const c of components) byRef.set(c.name, c.id);
  for (const c of components) byRef.set(c.key, c.id);
  const issues: FieldIssue[] = [];
  const ids = refs.map((ref, i) => {
    const id = byRef.get(ref);
    if (id === undefined) issues.push({ path: `${field}[${i}]`, message: `no component "${ref}" on this page` });
    return id;
  });
  if (issues.length > 0) throw new ValidationError(issues);
  return [...new Set(ids as string[])];
}

/** Component ids to keys on a page, in page order, for views. */
export async function componentKeysById(ctx: ServiceContext, pageId: string): Promise<Map<string, string>> {
  return new Map((await ctx.store.components.list(pageId)).map((c) => [c.id, c.key]));
}
