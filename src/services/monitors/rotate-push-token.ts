// Issues a new push token for a push monitor of the organization, by id; the old one stops working at once.
import { ConflictError } from '../../domain/errors.js';
import type { ServiceDeps } from '../deps.js';
import { issuePushToken } from './issue-push-token.js';
import { relayKeysById, requireMonitor } from './require.js';
import { type MonitorWithRelay, monitorWithRelay } from './view.js';

/** Allowed on config-managed monitors too: the file holds no token unless it fixes one, as with `warden monitors token`. */
export async function rotatePushToken(
  { db, bus, clock }: ServiceDeps,
  organizationId: string,
  id: string,
): Promise<{ monitor: MonitorWithRelay; pushToken: string }> {
  const monitor = await requireMonitor(db, organizationId, id);
  if (monitor.runOn !== 'push')
    throw new ConflictError(`monitor "${monitor.key}" runs on ${monitor.runOn}; only push monitors have push tokens`);
  const pushToken = await issuePushToken(db, organizationId, monitor.key, clock.now());
  // Token caches listen for this: the old token stops working at once.
  bus.publish({ type: 'monitors.changed', at: clock.now(), organizationId });
  const updated = await requireMonitor(db, organizationId, id);
  return { monitor: monitorWithRelay(updated, await relayKeysById(db, organizationId)), pushToken };
}
