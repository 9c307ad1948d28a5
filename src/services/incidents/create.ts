// Opens an incident on a page (also on a config-managed page), with its first timeline entry.
import { ConflictError } from '../../domain/errors.js';
import { newId } from '../../domain/ids.js';
import { findIncidentById, incidentKeyTaken, insertIncident } from '../../store/incidents.js';
import { componentKeysById, resolveComponentRefs } from '../components/require.js';
import { uniquely } from '../config-managed.js';
import type { ServiceDeps } from '../deps.js';
import { requirePage } from '../pages/require.js';
import type { IncidentCreateInput } from './schema.js';
import { type IncidentView, incidentView } from './view.js';

export async function createIncident(
  { db, bus, clock }: ServiceDeps,
  organizationId: string,
  slug: string,
  input: IncidentCreateInput,
): Promise<IncidentView> {
  const now = clock.now();
  const taken = `an incident with key "${input.key}" already exists on page "${slug}"`;
  const { incident, pageId } = await uniquely(
    () =>
      db.transaction().execute(async (trx) => {
        const page = await requirePage(trx, organizationId, slug);
        if (input.key !== undefined && (await incidentKeyTaken(trx, page.id, input.key))) throw new ConflictError(taken);
        const componentIds = await resolveComponentRefs(trx, page.id, input.components);
        const id = newId('inc');
        await insertIncident(
          trx,
          {
            id,
            pageId: page.id,
            key: input.key ?? null,
            title: input.title,
            status: input.status,
            impact: input.impact,
            startedAt: input.startedAt ?? now,
            resolvedAt: input.status === 'resolved' ? now : null,
            componentIds,
            updates: [{ status: input.status, message: input.message, at: now }],
            managedBy: 'api',
          },
          () => newId('upd'),
          now,
        );
        return { incident: await findIncidentById(trx, id), pageId: page.id };
      }),
    taken,
  );
  if (!incident) throw new Error('incident vanished after insert');
  bus.publish({ type: 'page.changed', at: now, pageId });
  return incidentView(incident, await componentKeysById(db, pageId));
}
