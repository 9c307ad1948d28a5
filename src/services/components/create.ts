// Adds a component to a page (also to a config-managed page: the file leaves API components alone).
import { ConflictError } from '../../domain/errors.js';
import { newId } from '../../domain/ids.js';
import { findComponentById, insertComponent, listComponents } from '../../store/components.js';
import { API_LIMITS } from '../api-limits.js';
import { uniquely } from '../config-managed.js';
import type { ServiceDeps } from '../deps.js';
import { requirePage } from '../pages/require.js';
import { monitorKeysById, resolveMonitorKey } from './require.js';
import type { ComponentCreateInput } from './schema.js';
import { type ComponentView, componentView } from './view.js';

export async function createComponent(
  { db, bus, clock }: ServiceDeps,
  organizationId: string,
  slug: string,
  input: ComponentCreateInput,
): Promise<ComponentView> {
  const now = clock.now();
  const key = input.key ?? input.name;
  const taken = `a component with key "${key}" already exists on page "${slug}"`;
  const { component, pageId } = await uniquely(
    () =>
      db.transaction().execute(async (trx) => {
        const page = await requirePage(trx, organizationId, slug);
        const existing = await listComponents(trx, page.id);
        if (existing.length >= API_LIMITS.componentsPerPage)
          throw new ConflictError(`a page has at most ${API_LIMITS.componentsPerPage} components`);
        if (existing.some((c) => c.key === key)) throw new ConflictError(taken);
        const monitorId = input.monitor === undefined ? null : await resolveMonitorKey(trx, organizationId, input.monitor);
        const id = newId('cmp');
        const order = input.order ?? existing.reduce((max, c) => Math.max(max, c.order + 1), 0);
        await insertComponent(
          trx,
          {
            id,
            pageId: page.id,
            key,
            name: input.name,
            description: input.description ?? null,
            group: input.group ?? null,
            order,
            monitorId,
            managedBy: 'api',
          },
          now,
        );
        return { component: await findComponentById(trx, id), pageId: page.id };
      }),
    taken,
  );
  if (!component) throw new Error('component vanished after insert');
  bus.publish({ type: 'page.changed', at: now, pageId });
  return componentView(component, await monitorKeysById(db, organizationId));
}
