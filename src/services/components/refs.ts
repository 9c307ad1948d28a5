// How bodies and warden.yaml name things on a page: monitors by key, components by key or name; and the keys views show.
import { ConflictError, type FieldIssue, NotFoundError, ValidationError } from '../../domain/errors.js';
import type { Page } from '../../domain/page.js';
import { organizationOf, type ServiceContext, uniquely } from '../context.js';
import { requirePage } from '../pages/read.js';
import { changed } from '../pages/write.js';

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

/** Monitor ids to keys, for views. */
export async function monitorKeysById(ctx: ServiceContext): Promise<Map<string, string>> {
  return new Map((await ctx.store.monitors.list(organizationOf(ctx))).map((m) => [m.id, m.key]));
}

/** Component ids for references by key or name (as in warden.yaml); every unknown one is named. */
export async function resolveComponentRefs(ctx: ServiceContext, pageId: string, refs: readonly string[], field = 'components'): Promise<string[]> {
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

/**
 * Adds a keyed object to a page: the page's cap, the key free on the page (a race on it is a 409 too), then the page's
 * caches told. `insert` writes the object and reads it back.
 */
export async function addToPage<T>(
  ctx: ServiceContext,
  page: Page,
  add: { key: string | null; taken: string; count(): Promise<number>; max: number; full: string; exists(key: string): Promise<unknown>; insert(): Promise<T> },
): Promise<T> {
  const item = await uniquely(
    ctx,
    async () => {
      if ((await add.count()) >= add.max) throw new ConflictError(add.full);
      if (add.key !== null && (await add.exists(add.key))) throw new ConflictError(add.taken);
      return add.insert();
    },
    add.taken,
  );
  changed(ctx, page);
  return item;
}
