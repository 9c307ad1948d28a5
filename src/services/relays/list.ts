// Lists the organization's relays.
import type { Db } from '../../store/connect.js';
import { listRelays as listStored } from '../../store/relays.js';
import { type RelayView, relayView } from './view.js';

export async function listRelays(db: Db, organizationId: string): Promise<RelayView[]> {
  return (await listStored(db, organizationId)).map(relayView);
}
