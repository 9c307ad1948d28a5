// Finds a relay of the organization by id.
import { NotFoundError } from '../../domain/errors.js';
import type { Db } from '../../store/connect.js';
import { findRelayById, type Relay } from '../../store/relays.js';

export async function requireRelay(db: Db, organizationId: string, id: string): Promise<Relay> {
  const relay = await findRelayById(db, id);
  if (!relay || relay.organizationId !== organizationId) throw new NotFoundError('relay', id);
  return relay;
}
