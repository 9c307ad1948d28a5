// Lists the components of a page, in page order.
import { listComponents as listStored } from '../../store/components.js';
import type { Db } from '../../store/connect.js';
import { requirePage } from '../pages/require.js';
import { monitorKeysById } from './require.js';
import { type ComponentView, componentView } from './view.js';

export async function listComponents(db: Db, organizationId: string, slug: string): Promise<ComponentView[]> {
  const page = await requirePage(db, organizationId, slug);
  const [components, monitorKeys] = await Promise.all([listStored(db, page.id), monitorKeysById(db, organizationId)]);
  return components.map((c) => componentView(c, monitorKeys));
}
