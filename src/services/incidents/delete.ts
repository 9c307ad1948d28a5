// Deletes an incident created through the API, with its timeline.
import { deleteIncident as deleteStored } from '../../store/incidents.js';
import { refuseConfigManaged } from '../config-managed.js';
import type { ServiceDeps } from '../deps.js';
import { requireIncident } from './require.js';

export async function deleteIncident({ db, bus, clock }: ServiceDeps, organizationId: string, slug: string, id: string): Promise<void> {
  const { page, incident } = await requireIncident(db, organizationId, id, slug);
  refuseConfigManaged(incident, `incident "${incident.key ?? incident.id}" of page "${slug}"`);
  await deleteStored(db, incident.id);
  bus.publish({ type: 'page.changed', at: clock.now(), pageId: page.id });
}
