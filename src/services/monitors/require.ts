// Finds a monitor of the organization by id, and the relay keys its views show.
import { NotFoundError } from '../../domain/errors.js';
import type { Db } from '../../store/connect.js';
import { findMonitorById, type Monitor } from '../../store/monitors.js';
import { listRelays } from '../../store/relays.js';

export async function requireMonitor(db: Db, organizationId: string, id: string): Promise<Monitor> {
  const monitor = await findMonitorById(db, id);
  if (!monitor || monitor.organizationId !== organizationId) throw new NotFoundError('monitor', id);
  return monitor;
}

export async function relayKeysById(db: Db, organizationId: string): Promise<Map<string, string>> {
  return new Map((await listRelays(db, organizationId)).map((r) => [r.id, r.key]));
}
