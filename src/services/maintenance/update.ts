// Changes a maintenance window created through the API (config-managed windows answer 409).
import { ValidationError } from '../../domain/errors.js';
import { findMaintenanceById, updateMaintenance as updateStored } from '../../store/maintenance.js';
import { componentKeysById, resolveComponentRefs } from '../components/require.js';
import { refuseConfigManaged } from '../config-managed.js';
import type { ServiceDeps } from '../deps.js';
import { requireMaintenance } from './require.js';
import { ENDS_AFTER_START, endsAfterStart, type MaintenancePatchInput } from './schema.js';
import { type MaintenanceView, maintenanceView } from './view.js';

export async function updateMaintenance(
  { db, bus, clock }: ServiceDeps,
  organizationId: string,
  slug: string,
  id: string,
  patch: MaintenancePatchInput,
): Promise<MaintenanceView> {
  const now = clock.now();
  const { window, pageId } = await db.transaction().execute(async (trx) => {
    const { page, window: current } = await requireMaintenance(trx, organizationId, slug, id);
    refuseConfigManaged(current, `maintenance "${current.key ?? current.id}" of page "${slug}"`);
    const startsAt = patch.startsAt ?? current.startsAt;
    const endsAt = patch.endsAt ?? current.endsAt;
    if (!endsAfterStart(startsAt, endsAt)) throw new ValidationError([{ path: 'endsAt', message: ENDS_AFTER_START }]);
    const componentIds = patch.components === undefined ? current.componentIds : await resolveComponentRefs(trx, page.id, patch.components);
    await updateStored(
      trx,
      current.id,
      {
        key: current.key,
        title: patch.title ?? current.title,
        description: patch.description === undefined ? current.description : patch.description,
        startsAt,
        endsAt,
        componentIds,
      },
      'api',
      now,
    );
    return { window: (await findMaintenanceById(trx, current.id)) ?? current, pageId: page.id };
  });
  bus.publish({ type: 'page.changed', at: now, pageId });
  return maintenanceView(window, await componentKeysById(db, pageId));
}
