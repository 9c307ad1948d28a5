// Renames a relay created through the API (config-managed relays answer 409).
import { findRelayById, updateRelay as updateStored } from '../../store/relays.js';
import { refuseConfigManaged } from '../config-managed.js';
import type { ServiceDeps } from '../deps.js';
import { requireRelay } from './require.js';
import type { RelayPatchInput } from './schema.js';
import { type RelayView, relayView } from './view.js';

export async function updateRelay({ db, clock }: ServiceDeps, organizationId: string, id: string, patch: RelayPatchInput): Promise<RelayView> {
  const current = await requireRelay(db, organizationId, id);
  refuseConfigManaged(current, `relay "${current.key}"`);
  if (patch.name !== undefined && patch.name !== current.name) await updateStored(db, current.id, { name: patch.name }, clock.now());
  return relayView((await findRelayById(db, current.id)) ?? current);
}
