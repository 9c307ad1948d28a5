// Reads one page of the organization.
import type { Db } from '../../store/connect.js';
import { requirePage } from './require.js';
import { type PageView, pageView } from './view.js';

export async function getPage(db: Db, organizationId: string, slug: string): Promise<PageView> {
  return pageView(await requirePage(db, organizationId, slug));
}
