// Deletes a maintenance window created through the API.
import { deleteMaintenance as deleteStored } from '../../store/maintenance.js';
import { refuseConfigManaged } from '../config-managed.js';
import type { ServiceDeps } from '../deps.js';
import { requireMaintenance } from './require.js';

export async function deleteMaintenance({ db, bus, clock }: ServiceDeps, organizationId: string, slug: string, id: string): Promise<void> {
  const { page, window } = await requireMaintenance(db, organizationId, slug, id);
  refuseConfigManaged(window, `maintenance "${window.key ?? window.id}" of page "${slug}"`);
  await deleteStored(db, window.id);
  bus.publish({ type: 'page.changed', at: clock.now(), pageId: page.id });
}
