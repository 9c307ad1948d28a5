// Deletes a page created through the API, with its components, incidents and maintenance.
import { deletePage as deleteStored } from '../../store/pages.js';
import { refuseConfigManaged } from '../config-managed.js';
import type { ServiceDeps } from '../deps.js';
import { requirePage } from './require.js';

export async function deletePage({ db, bus, clock }: ServiceDeps, organizationId: string, slug: string): Promise<void> {
  const page = await requirePage(db, organizationId, slug);
  refuseConfigManaged(page, `page "${slug}"`);
  await deleteStored(db, page.id);
  bus.publish({ type: 'page.changed', at: clock.now(), pageId: page.id });
}
