// The built-in demo from the dashboard: whether it is there, and whether the signed-in user may remove it. The demo is
// nobody's; it is the operator's to remove, and on the dashboard the operator is whoever owns every other organization
// of the server (the first-run setup makes its user just that). Others, and API keys, leave it to `warden demo remove`.
import { z } from 'zod';
import { ForbiddenError, NotFoundError } from '../../domain/errors.js';
import { DEMO_ORGANIZATION_KEY } from '../../domain/organization.js';
import type { ServiceContext } from '../context.js';
import { removeDemo } from './demo.js';

export const demoStatusSchema = z.object({
  present: z.boolean().describe('Whether the built-in demo organization is on this server.'),
  removable: z
    .boolean()
    .describe('Whether you may remove it here: you own every other organization of the server (and there is one).'),
});

export type DemoStatus = z.infer<typeof demoStatusSchema>;

export async function demoStatus(ctx: ServiceContext, { userId }: { userId: string }): Promise<DemoStatus> {
  const all = await ctx.store.organizations.list();
  const isDemo = (o: (typeof all)[number]) => o.key === DEMO_ORGANIZATION_KEY && o.managedBy === 'config';
  const present = all.some(isDemo);
  const others = all.filter((o) => !isDemo(o));
  if (!present || others.length === 0) return { present, removable: false };
  const owned = new Set(
    (await ctx.store.memberships.listByUser(userId)).filter((m) => m.role === 'owner').map((m) => m.organizationId),
  );
  return { present, removable: others.every((o) => owned.has(o.id)) };
}

/** `removeDemo` for a signed-in user of the operator's standing (ForbiddenError otherwise; NotFoundError without a demo). */
export async function removeDemoAsOwner(
  ctx: ServiceContext,
  { userId }: { userId: string },
): Promise<{ wasAlone: boolean }> {
  const status = await demoStatus(ctx, { userId });
  if (!status.present)
    throw new NotFoundError('organization', `${DEMO_ORGANIZATION_KEY} (the built-in demo is not there)`);
  if (!status.removable)
    throw new ForbiddenError(
      'Only an owner of every other organization of this server may remove the built-in demo here; the operator can with `warden demo remove`.',
    );
  return removeDemo(ctx);
}
