// Lists the organization's monitors with their state and latest result, secrets redacted.
import type { Db } from '../../store/connect.js';
import { listMonitors as listStored } from '../../store/monitors.js';
import { relayKeysById } from './require.js';
import { type MonitorWithRelay, monitorWithRelay } from './view.js';

export async function listMonitors(db: Db, organizationId: string): Promise<MonitorWithRelay[]> {
  const [monitors, relayKeys] = await Promise.all([listStored(db, organizationId), relayKeysById(db, organizationId)]);
  return monitors.map((m) => monitorWithRelay(m, relayKeys));
}
