// Posts an update to an incident's timeline: it sets the incident's status (resolved closes it, anything else reopens it).
import { ConflictError } from '../../domain/errors.js';
import { newId } from '../../domain/ids.js';
import { findIncidentById, insertIncidentUpdate, setIncidentComponents, updateIncidentFields } from '../../store/incidents.js';
import { API_LIMITS } from '../api-limits.js';
import { componentKeysById, resolveComponentRefs } from '../components/require.js';
import { refuseConfigManaged } from '../config-managed.js';
import type { ServiceDeps } from '../deps.js';
import { requireIncident } from './require.js';
import type { IncidentUpdateInput } from './schema.js';
import { type IncidentView, incidentView } from './view.js';

export async function addIncidentUpdate(
  { db, bus, clock }: ServiceDeps,
  organizationId: string,
  id: string,
  input: IncidentUpdateInput,
): Promise<IncidentView> {
  const now = clock.now();
  const { incident, pageId } = await db.transaction().execute(async (trx) => {
    const { page, incident: current } = await requireIncident(trx, organizationId, id);
    refuseConfigManaged(current, `incident "${current.key ?? current.id}" of page "${page.slug}"`);
    if (current.updates.length >= API_LIMITS.updatesPerIncident)
      throw new ConflictError(`an incident has at most ${API_LIMITS.updatesPerIncident} updates; open a new incident`);
    // The timeline stays in order even when two updates arrive within the same millisecond.
    const at = Math.max(now, (current.updates.at(-1)?.at ?? 0) + 1);
    await insertIncidentUpdate(trx, current.id, { id: newId('upd'), status: input.status, message: input.message, at });
    if (input.components !== undefined) await setIncidentComponents(trx, current.id, await resolveComponentRefs(trx, page.id, input.components));
    await updateIncidentFields(
      trx,
      current.id,
      {
        status: input.status,
        resolvedAt: input.status === 'resolved' ? (current.resolvedAt ?? at) : null,
        ...(input.impact !== undefined ? { impact: input.impact } : {}),
      },
      now,
    );
    return { incident: (await findIncidentById(trx, current.id)) ?? current, pageId: page.id };
  });
  bus.publish({ type: 'page.changed', at: now, pageId });
  return incidentView(incident, await componentKeysById(db, pageId));
}
