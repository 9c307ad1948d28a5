// Issues a new push token for a heartbeat monitor (by id from the API, by key from the CLI); the old one stops working at once.
import type { z } from 'zod';
import { ConflictError } from '../../domain/errors.js';
import { generateSecret } from '../../domain/tokens.js';
import { parseInput, type ServiceContext, withTransaction } from '../context.js';
import { relayKeysById, requireMonitor } from './read.js';
import { monitorRefSchema } from './schema.js';
import { type MonitorWithRelay, monitorWithRelay } from './view.js';
import { storedToken } from './write.js';

/** Allowed on config-managed monitors too: the file holds no token unless it fixes one. */
export async function rotatePushToken(
  ctx: ServiceContext,
  input: z.input<typeof monitorRefSchema>,
): Promise<{ monitor: MonitorWithRelay; pushToken: string }> {
  const ref = parseInput(monitorRefSchema, input);
  const pushToken = generateSecret('pushToken');
  // In a transaction: the change counter moves with it, so other processes' token caches forget the old one too.
  const updated = await withTransaction(ctx, async (tx) => {
    const monitor = await requireMonitor(tx, ref);
    if (monitor.runOn !== 'push')
      throw new ConflictError(`monitor "${monitor.key}" runs on ${monitor.runOn}; only push monitors have push tokens`);
    await tx.store.monitors.setPushToken(monitor.id, storedToken(pushToken), tx.clock.now());
    // Token caches listen for this: the old token stops working at once.
    tx.bus.publish({ type: 'monitors.changed', at: tx.clock.now(), organizationId: monitor.organizationId });
    return (await tx.store.monitors.findById(monitor.id)) ?? monitor;
  });
  return { monitor: monitorWithRelay(updated, await relayKeysById(ctx)), pushToken };
}
