// Finds a maintenance window on a page of the organization.
import { NotFoundError } from '../../domain/errors.js';
import type { Db } from '../../store/connect.js';
import { findMaintenanceById, type Maintenance } from '../../store/maintenance.js';
import type { Page } from '../../store/pages.js';
import { requirePage } from '../pages/require.js';

export async function requireMaintenance(db: Db, organizationId: string, slug: string, id: string): Promise<{ page: Page; window: Maintenance }> {
  const page = await requirePage(db, organizationId, slug);
  const window = await findMaintenanceById(db, id);
  if (!window || window.pageId !== page.id) throw new NotFoundError('maintenance', id);
  return { page, window };
}
