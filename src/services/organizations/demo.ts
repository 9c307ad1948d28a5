// The built-in demo (src/config/demo.ts), once the operator has an organization of their own: paused at the server's
// start (src/compose/first-run.ts), and deleted here on request (`warden demo remove`).

import { NotFoundError } from '../../domain/errors.js';
import { DEMO_ORGANIZATION_KEY } from '../../domain/organization.js';
import { type ServiceContext, withTransaction } from '../context.js';
import { dropOrganization } from './delete.js';

/**
 * Inside a transaction, once the operator has an organization of their own (the first owner created): the built-in
 * demo steps aside at once — its monitors paused (kept, with their history) and its page removed, so it leaves `/`,
 * llms.txt and MCP — as every later start keeps it (src/compose/first-run.ts). Nothing when there is no demo.
 */
export async function retireDemo(ctx: ServiceContext): Promise<void> {
  const demo = (await ctx.store.organizations.list()).find(
    (o) => o.key === DEMO_ORGANIZATION_KEY && o.managedBy === 'config',
  );
  if (!demo) return;
  const now = ctx.clock.now();
  for (const m of await ctx.store.monitors.list(demo.id))
    if (m.enabled) {
      const { key, name, type, config, intervalSec, timeoutMs, runOn, relayId, retries, degradedLatencyMs } = m;
      await ctx.store.monitors.updateSpec(
        m.id,
        { key, name, type, config, intervalSec, timeoutMs, runOn, relayId, retries, degradedLatencyMs, enabled: false },
        'config',
        now,
      );
    }
  const pages = await ctx.store.pages.list(demo.id);
  for (const page of pages) await ctx.store.pages.delete(page.id);
  ctx.bus.publish({ type: 'monitors.changed', at: now, organizationId: demo.id });
  for (const page of pages) ctx.bus.publish({ type: 'page.changed', at: now, pageId: page.id });
}

/**
 * Deletes the built-in demo's organization with its monitors, page and history. Returns whether it was alone (then
 * the next start without a config file loads it again). NotFoundError when there is none; a `demo` someone made
 * themselves (through the API) is theirs and is never this one.
 */
export async function removeDemo(ctx: ServiceContext): Promise<{ wasAlone: boolean }> {
  return withTransaction(ctx, async (tx) => {
    const all = await tx.store.organizations.list();
    const demo = all.find((o) => o.key === DEMO_ORGANIZATION_KEY && o.managedBy === 'config');
    if (!demo) throw new NotFoundError('organization', `${DEMO_ORGANIZATION_KEY} (the built-in demo is not there)`);
    await dropOrganization(tx, demo.id);
    tx.logger.info({ organization: demo.key, id: demo.id }, 'built-in demo removed');
    return { wasAlone: all.length === 1 };
  });
}
