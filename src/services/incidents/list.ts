// Lists a page's incidents, newest first.
import type { Db } from '../../store/connect.js';
import { listIncidents as listStored } from '../../store/incidents.js';
import { componentKeysById } from '../components/require.js';
import { requirePage } from '../pages/require.js';
import { type IncidentView, incidentView } from './view.js';

export async function listIncidents(db: Db, organizationId: string, slug: string, limit: number): Promise<IncidentView[]> {
  const page = await requirePage(db, organizationId, slug);
  const [incidents, componentKeys] = await Promise.all([listStored(db, page.id, { limit }), componentKeysById(db, page.id)]);
  return incidents.map((i) => incidentView(i, componentKeys));
}
