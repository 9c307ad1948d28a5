// Finds a component on a page of the organization, and resolves the names bodies use for monitors and components.

import type { FieldIssue } from '../../domain/errors.js';
import { NotFoundError, ValidationError } from '../../domain/errors.js';
import { type Component, findComponentById, listComponents } from '../../store/components.js';
import type { Db } from '../../store/connect.js';
import { findMonitorByKey, listMonitors } from '../../store/monitors.js';
import type { Page } from '../../store/pages.js';
import { requirePage } from '../pages/require.js';

export async function requireComponent(db: Db, organizationId: string, slug: string, id: string): Promise<{ page: Page; component: Component }> {
  const page = await requirePage(db, organizationId, slug);
  const component = await findComponentById(db, id);
  if (!component || component.pageId !== page.id) throw new NotFoundError('component', id);
  return { page, component };
}

/** The id of the organization's monitor with this key; a validation error on `monitor` otherwise. */
export async function resolveMonitorKey(db: Db, organizationId: string, key: string): Promise<string> {
  const monitor = await findMonitorByKey(db, organizationId, key);
  if (!monitor) throw new ValidationError([{ path: 'monitor', message: `no monitor with key "${key}"` }]);
  return monitor.id;
}

/** Monitor ids to keys, for views. */
export async function monitorKeysById(db: Db, organizationId: string): Promise<Map<string, string>> {
  return new Map((await listMonitors(db, organizationId)).map((m) => [m.id, m.key]));
}

/** Component ids for references by key or name (as in warden.yaml); every unknown one is named. */
export async function resolveComponentRefs(db: Db, pageId: string, refs: readonly string[], field = 'components'): Promise<string[]> {
  const components = await listComponents(db, pageId);
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

/** Component ids to keys on a page, for views. */
export async function componentKeysById(db: Db, pageId: string): Promise<Map<string, string>> {
  return new Map((await listComponents(db, pageId)).map((c) => [c.id, c.key]));
}
