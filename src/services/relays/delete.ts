// Deletes a relay created through the API; a relay that still runs monitors is refused (409) so none is left without a place to run.
import { ConflictError } from '../../domain/errors.js';
import { monitorKeysOnRelay } from '../../store/monitors.js';
import { deleteRelay as deleteStored } from '../../store/relays.js';
import { refuseConfigManaged } from '../config-managed.js';
import type { ServiceDeps } from '../deps.js';
import { requireRelay } from './require.js';

export async function deleteRelay({ db, bus, clock }: ServiceDeps, organizationId: string, id: string): Promise<void> {
  const relay = await requireRelay(db, organizationId, id);
  refuseConfigManaged(relay, `relay "${relay.key}"`);
  const monitors = await monitorKeysOnRelay(db, relay.id);
  if (monitors.length > 0)
    throw new ConflictError(`relay "${relay.key}" runs monitors ${monitors.map((k) => `"${k}"`).join(', ')}; move or delete them first`);
  await deleteStored(db, relay.id);
  bus.publish({ type: 'monitors.changed', at: clock.now(), organizationId });
}
