// Lists a page's maintenance windows, soonest first.
import type { Db } from '../../store/connect.js';
import { listMaintenance as listStored } from '../../store/maintenance.js';
import { componentKeysById } from '../components/require.js';
import { requirePage } from '../pages/require.js';
import { type MaintenanceView, maintenanceView } from './view.js';

export async function listMaintenance(db: Db, organizationId: string, slug: string): Promise<MaintenanceView[]> {
  const page = await requirePage(db, organizationId, slug);
  const [windows, componentKeys] = await Promise.all([listStored(db, page.id), componentKeysById(db, page.id)]);
  return windows.map((w) => maintenanceView(w, componentKeys));
}
