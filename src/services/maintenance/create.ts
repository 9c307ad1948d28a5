// Schedules a maintenance window on a page (also on a config-managed page).
import { ConflictError } from '../../domain/errors.js';
import { newId } from '../../domain/ids.js';
import { countMaintenance, findMaintenanceById, insertMaintenance, maintenanceKeyTaken } from '../../store/maintenance.js';
import { API_LIMITS } from '../api-limits.js';
import { componentKeysById, resolveComponentRefs } from '../components/require.js';
import { uniquely } from '../config-managed.js';
import type { ServiceDeps } from '../deps.js';
import { requirePage } from '../pages/require.js';
import type { MaintenanceCreateInput } from './schema.js';
import { type MaintenanceView, maintenanceView } from './view.js';

export async function createMaintenance(
  { db, bus, clock }: ServiceDeps,
  organizationId: string,
  slug: string,
  input: MaintenanceCreateInput,
): Promise<MaintenanceView> {
  const now = clock.now();
  const taken = `a maintenance window with key "${input.key}" already exists on page "${slug}"`;
  const { window, pageId } = await uniquely(
    () =>
      db.transaction().execute(async (trx) => {
        const page = await requirePage(trx, organizationId, slug);
        if ((await countMaintenance(trx, page.id)) >= API_LIMITS.maintenancePerPage)
          throw new ConflictError(`a page has at most ${API_LIMITS.maintenancePerPage} maintenance windows; delete past ones first`);
        if (input.key !== undefined && (await maintenanceKeyTaken(trx, page.id, input.key))) throw new ConflictError(taken);
        const componentIds = await resolveComponentRefs(trx, page.id, input.components);
        const id = newId('mnt');
        await insertMaintenance(
          trx,
          {
            id,
            pageId: page.id,
            key: input.key ?? null,
            title: input.title,
            description: input.description ?? null,
            startsAt: input.startsAt,
            endsAt: input.endsAt,
            componentIds,
            managedBy: 'api',
          },
          now,
        );
        return { window: await findMaintenanceById(trx, id), pageId: page.id };
      }),
    taken,
  );
  if (!window) throw new Error('maintenance vanished after insert');
  bus.publish({ type: 'page.changed', at: now, pageId });
  return maintenanceView(window, await componentKeysById(db, pageId));
}
