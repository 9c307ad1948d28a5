// Issues a new token for a relay of the organization, by id; the old one stops working at once.
import { displayPrefix, generateSecret, hashSecret } from '../../domain/tokens.js';
import { findRelayById, setRelayToken } from '../../store/relays.js';
import type { ServiceDeps } from '../deps.js';
import { requireRelay } from './require.js';
import { type RelayView, relayView } from './view.js';

/** Allowed on config-managed relays too: the file holds no token unless it fixes one, as with `warden relays token`. */
export async function rotateRelayToken({ db, clock }: ServiceDeps, organizationId: string, id: string): Promise<{ relay: RelayView; token: string }> {
  const relay = await requireRelay(db, organizationId, id);
  const token = generateSecret('relayToken');
  await setRelayToken(db, relay.id, { hash: hashSecret(token), prefix: displayPrefix(token) }, clock.now());
  return { relay: relayView((await findRelayById(db, relay.id)) ?? relay), token };
}
