// Creates a monitor through the API; a push monitor's token is generated and returned once.
import { monitorPlacementIssues } from '../../config/file-schema.js';
import { ConflictError, ValidationError } from '../../domain/errors.js';
import { newId } from '../../domain/ids.js';
import { displayPrefix, generateSecret, hashSecret } from '../../domain/tokens.js';
import { countMonitors, findMonitorById, findMonitorByKey, insertMonitor } from '../../store/monitors.js';
import { listRelays } from '../../store/relays.js';
import { API_LIMITS } from '../api-limits.js';
import { uniquely } from '../config-managed.js';
import type { ServiceDeps } from '../deps.js';
import type { MonitorCreateInput } from './schema.js';
import { type MonitorWithRelay, monitorWithRelay } from './view.js';

export async function createMonitor(
  { db, bus, clock }: ServiceDeps,
  organizationId: string,
  input: MonitorCreateInput,
): Promise<{ monitor: MonitorWithRelay; pushToken: string | null }> {
  const now = clock.now();
  const pushToken = input.runOn === 'push' ? generateSecret('pushToken') : null;
  const taken = `a monitor with key "${input.key}" already exists`;
  const { monitor, relayKeys } = await uniquely(
    () =>
      db.transaction().execute(async (trx) => {
        if ((await countMonitors(trx, organizationId)) >= API_LIMITS.monitorsPerOrganization)
          throw new ConflictError(`an organization has at most ${API_LIMITS.monitorsPerOrganization} monitors`);
        if (await findMonitorByKey(trx, organizationId, input.key)) throw new ConflictError(taken);
        const relays = await listRelays(trx, organizationId);
        const relayIds = new Map(relays.map((r) => [r.key, r.id]));
        const issues = monitorPlacementIssues(input, (key) => relayIds.has(key));
        if (issues.length > 0) throw new ValidationError(issues);
        const id = newId('mon');
        await insertMonitor(
          trx,
          {
            id,
            organizationId,
            key: input.key,
            name: input.name,
            type: input.type,
            config: input.config as Record<string, unknown>,
            intervalSec: input.intervalSec,
            timeoutMs: input.timeoutMs,
            runOn: input.runOn,
            relayId: input.relay === undefined ? null : (relayIds.get(input.relay) ?? null),
            enabled: input.enabled,
            retries: input.retries,
            degradedLatencyMs: input.degradedLatencyMs ?? null,
            managedBy: 'api',
            pushToken: pushToken === null ? null : { hash: hashSecret(pushToken), prefix: displayPrefix(pushToken) },
          },
          now,
        );
        return { monitor: await findMonitorById(trx, id), relayKeys: new Map(relays.map((r) => [r.id, r.key])) };
      }),
    taken,
  );
  if (!monitor) throw new Error('monitor vanished after insert');
  bus.publish({ type: 'monitors.changed', at: now, organizationId });
  return { monitor: monitorWithRelay(monitor, relayKeys), pushToken };
}
