// Reads one incident of a page.
import type { Db } from '../../store/connect.js';
import { componentKeysById } from '../components/require.js';
import { requireIncident } from './require.js';
import { type IncidentView, incidentView } from './view.js';

export async function getIncident(db: Db, organizationId: string, slug: string, id: string): Promise<IncidentView> {
  const { page, incident } = await requireIncident(db, organizationId, id, slug);
  return incidentView(incident, await componentKeysById(db, page.id));
}
