// Reads one component of a page.
import type { Db } from '../../store/connect.js';
import { monitorKeysById, requireComponent } from './require.js';
import { type ComponentView, componentView } from './view.js';

export async function getComponent(db: Db, organizationId: string, slug: string, id: string): Promise<ComponentView> {
  const { component } = await requireComponent(db, organizationId, slug, id);
  return componentView(component, await monitorKeysById(db, organizationId));
}
