// Lists the organization's pages.
import type { Db } from '../../store/connect.js';
import { listPages as listStored } from '../../store/pages.js';
import { type PageView, pageView } from './view.js';

export async function listPages(db: Db, organizationId: string): Promise<PageView[]> {
  return (await listStored(db, organizationId)).map(pageView);
}
