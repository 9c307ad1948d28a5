// Reads one relay of the organization.
import type { Db } from '../../store/connect.js';
import { requireRelay } from './require.js';
import { type RelayView, relayView } from './view.js';

export async function getRelay(db: Db, organizationId: string, id: string): Promise<RelayView> {
  return relayView(await requireRelay(db, organizationId, id));
}
