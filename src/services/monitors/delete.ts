// Deletes a monitor created through the API, with its history; components that showed it show nothing until told otherwise.
import { pageIdsShowingMonitor } from '../../store/components.js';
import { deleteMonitor as deleteStored } from '../../store/monitors.js';
import { refuseConfigManaged } from '../config-managed.js';
import type { ServiceDeps } from '../deps.js';
import { requireMonitor } from './require.js';

export async function deleteMonitor({ db, bus, clock }: ServiceDeps, organizationId: string, id: string): Promise<void> {
  const monitor = await requireMonitor(db, organizationId, id);
  refuseConfigManaged(monitor, `monitor "${monitor.key}"`);
  const pageIds = await pageIdsShowingMonitor(db, monitor.id);
  await deleteStored(db, monitor.id);
  const now = clock.now();
  bus.publish({ type: 'monitors.changed', at: now, organizationId });
  for (const pageId of pageIds) bus.publish({ type: 'page.changed', at: now, pageId });
}
