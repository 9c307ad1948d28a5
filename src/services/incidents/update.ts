// Changes an incident's title, impact, start or affected components (config-managed incidents answer 409).
import { findIncidentById, setIncidentComponents, updateIncidentFields } from '../../store/incidents.js';
import { componentKeysById, resolveComponentRefs } from '../components/require.js';
import { refuseConfigManaged } from '../config-managed.js';
import type { ServiceDeps } from '../deps.js';
import { requireIncident } from './require.js';
import type { IncidentPatchInput } from './schema.js';
import { type IncidentView, incidentView } from './view.js';

export async function updateIncident(
  { db, bus, clock }: ServiceDeps,
  organizationId: string,
  slug: string,
  id: string,
  patch: IncidentPatchInput,
): Promise<IncidentView> {
  const now = clock.now();
  const { incident, pageId } = await db.transaction().execute(async (trx) => {
    const { page, incident: current } = await requireIncident(trx, organizationId, id, slug);
    refuseConfigManaged(current, `incident "${current.key ?? current.id}" of page "${slug}"`);
    if (patch.components !== undefined) await setIncidentComponents(trx, current.id, await resolveComponentRefs(trx, page.id, patch.components));
    await updateIncidentFields(
      trx,
      current.id,
      {
        ...(patch.title !== undefined ? { title: patch.title } : {}),
        ...(patch.impact !== undefined ? { impact: patch.impact } : {}),
        ...(patch.startedAt !== undefined ? { startedAt: patch.startedAt } : {}),
      },
      now,
    );
    return { incident: (await findIncidentById(trx, current.id)) ?? current, pageId: page.id };
  });
  bus.publish({ type: 'page.changed', at: now, pageId });
  return incidentView(incident, await componentKeysById(db, pageId));
}
