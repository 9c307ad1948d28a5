// Reads one monitor of the organization, secrets redacted.
import type { Db } from '../../store/connect.js';
import { relayKeysById, requireMonitor } from './require.js';
import { type MonitorWithRelay, monitorWithRelay } from './view.js';

export async function getMonitor(db: Db, organizationId: string, id: string): Promise<MonitorWithRelay> {
  const monitor = await requireMonitor(db, organizationId, id);
  return monitorWithRelay(monitor, await relayKeysById(db, organizationId));
}
