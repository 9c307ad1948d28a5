// Finds an incident of the organization, by id alone or on a given page.
import { NotFoundError } from '../../domain/errors.js';
import type { Db } from '../../store/connect.js';
import { findIncidentById, type Incident } from '../../store/incidents.js';
import { findPageById, type Page } from '../../store/pages.js';
import { requirePage } from '../pages/require.js';

export async function requireIncident(db: Db, organizationId: string, id: string, slug?: string): Promise<{ page: Page; incident: Incident }> {
  const incident = await findIncidentById(db, id);
  if (slug !== undefined) {
    const page = await requirePage(db, organizationId, slug);
    if (!incident || incident.pageId !== page.id) throw new NotFoundError('incident', id);
    return { page, incident };
  }
  const page = incident && (await findPageById(db, incident.pageId));
  if (!incident || !page || page.organizationId !== organizationId) throw new NotFoundError('incident', id);
  return { page, incident };
}
