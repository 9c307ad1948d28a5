// Removes a component created through the API from its page (and from the incidents and maintenance naming it).
import { deleteComponent as deleteStored } from '../../store/components.js';
import { refuseConfigManaged } from '../config-managed.js';
import type { ServiceDeps } from '../deps.js';
import { requireComponent } from './require.js';

export async function deleteComponent({ db, bus, clock }: ServiceDeps, organizationId: string, slug: string, id: string): Promise<void> {
  const { page, component } = await requireComponent(db, organizationId, slug, id);
  refuseConfigManaged(component, `component "${component.key}" of page "${slug}"`);
  await deleteStored(db, component.id);
  bus.publish({ type: 'page.changed', at: clock.now(), pageId: page.id });
}
