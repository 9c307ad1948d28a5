// Reads one maintenance window of a page.
import type { Db } from '../../store/connect.js';
import { componentKeysById } from '../components/require.js';
import { requireMaintenance } from './require.js';
import { type MaintenanceView, maintenanceView } from './view.js';

export async function getMaintenance(db: Db, organizationId: string, slug: string, id: string): Promise<MaintenanceView> {
  const { page, window } = await requireMaintenance(db, organizationId, slug, id);
  return maintenanceView(window, await componentKeysById(db, page.id));
}
