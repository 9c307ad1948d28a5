// Changes a component created through the API (config-managed components answer 409).
import { findComponentById, updateComponent as updateStored } from '../../store/components.js';
import { refuseConfigManaged } from '../config-managed.js';
import type { ServiceDeps } from '../deps.js';
import { monitorKeysById, requireComponent, resolveMonitorKey } from './require.js';
import type { ComponentPatchInput } from './schema.js';
import { type ComponentView, componentView } from './view.js';

export async function updateComponent(
  { db, bus, clock }: ServiceDeps,
  organizationId: string,
  slug: string,
  id: string,
  patch: ComponentPatchInput,
): Promise<ComponentView> {
  const now = clock.now();
  const { component, pageId } = await db.transaction().execute(async (trx) => {
    const { page, component: current } = await requireComponent(trx, organizationId, slug, id);
    refuseConfigManaged(current, `component "${current.key}" of page "${slug}"`);
    const monitorId =
      patch.monitor === undefined ? current.monitorId : patch.monitor === null ? null : await resolveMonitorKey(trx, organizationId, patch.monitor);
    await updateStored(
      trx,
      current.id,
      {
        key: current.key,
        name: patch.name ?? current.name,
        description: patch.description === undefined ? current.description : patch.description,
        group: patch.group === undefined ? current.group : patch.group,
        order: patch.order ?? current.order,
        monitorId,
      },
      'api',
      now,
    );
    return { component: (await findComponentById(trx, current.id)) ?? current, pageId: page.id };
  });
  bus.publish({ type: 'page.changed', at: now, pageId });
  return componentView(component, await monitorKeysById(db, organizationId));
}
